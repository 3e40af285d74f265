-- 0001: the items table, its indexes, the FTS5 index kept in step by triggers, and the
-- library's record (schema version in PRAGMA user_version, tokenizer in recall_meta).
--
-- The CLI applies this file inside one transaction. It replaces the tokenize clause
-- below with the library's tokenizer; as written, the file builds the default.

create table recall_meta (
  key   text primary key,
  value text not null
) strict;

create table items (
  id          integer primary key,
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

create index items_by_project on items (project, occurred_at);
create index items_by_source on items (source, occurred_at);
create index items_by_time on items (occurred_at);

create virtual table items_fts using fts5 (
  title, summary, questions, atoms, project,
  content = 'items', content_rowid = 'id',
  tokenize = 'trigram remove_diacritics 1'
);

-- An external-content index must be told the old values of a row to forget it.
-- INSERT OR REPLACE deletes the old row without firing delete triggers (unless
-- PRAGMA recursive_triggers is on), so the old values are kept aside before every
-- insert and forgotten by whichever trigger runs next: after insert (a replace),
-- after update (an upsert), or after delete (a replace with recursive triggers).
create table items_fts_pending (
  id integer primary key,
  title, summary, questions, atoms, project
);

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
