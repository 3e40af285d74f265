-- 0003: item ids are never reused. With AUTOINCREMENT, SQLite gives a new item an id
-- above every id the table has ever held (recorded in sqlite_sequence), so an id that
-- named a forgotten item never names another one. A column cannot be altered in place:
-- the table is made again with its rows and ids, and its indexes and the index's
-- triggers (dropped with the old table) are created again exactly as 0001 has them.
--
-- The FTS5 index refers to the table by name and keeps the items' ids as its rowids,
-- so it stays valid as it is: no trigger fires while the rows move (DROP TABLE drops a
-- table's triggers before its rows), and nothing is reindexed.

-- A column added to items by hand (which `check` accepts) would be lost in the copy:
-- the migration is refused then, and nothing changes.
create temp table recall_0003_added_columns (name text);
create temp trigger recall_0003_added_columns_refused
before insert on recall_0003_added_columns begin
  select raise(abort, 'the table items has a column the migrations do not define (added by hand), which this migration would lose: copy its data elsewhere and drop it (alter table items drop column NAME), then run `recall migrate` again');
end;
insert into recall_0003_added_columns
select name from pragma_table_info('items')
where name not in ('id', 'source', 'project', 'title', 'summary', 'questions', 'atoms',
                   'occurred_at', 'transcript', 'imported_at');
drop table recall_0003_added_columns;

create table items_autoincrement (
  id          integer primary key autoincrement,
  source      text not null check (source <> ''),
  project     text,
  title       text not null,
  summary     text not null default '',
  questions   text not null default '',
  atoms       text not null default '',
  occurred_at text not null,  -- ISO-8601 UTC, normalised on import: 2025-03-04T05:06:07Z
  transcript  text,           -- stored, never indexed
  imported_at text not null default (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Inserting the rows with their ids seeds sqlite_sequence with the highest of them.
insert into items_autoincrement
  (id, source, project, title, summary, questions, atoms, occurred_at, transcript, imported_at)
select id, source, project, title, summary, questions, atoms, occurred_at, transcript, imported_at
from items order by id;

drop table items;
alter table items_autoincrement rename to items;

create index items_by_project on items (project, occurred_at);
create index items_by_source on items (source, occurred_at);
create index items_by_time on items (occurred_at);

create trigger items_fts_before_insert before insert on items begin
  insert or replace into items_fts_pending (id, title, summary, questions, atoms, project)
    select id, title, summary, questions, atoms, project from items where id = new.id;
end;

create trigger items_fts_after_insert after insert on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    select 'delete', id, title, summary, questions, atoms, project
    from items_fts_pending where id = new.id;
  delete from items_fts_pending where id = new.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project);
end;

create trigger items_fts_after_delete after delete on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project);
  delete from items_fts_pending where id = old.id;
end;

create trigger items_fts_after_update
after update of id, title, summary, questions, atoms, project on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project);
  delete from items_fts_pending where id = old.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project);
end;
