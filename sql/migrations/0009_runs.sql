-- 0009: the runs of the items' own text, each with the items holding it, so that the
-- first prompt lists the items holding a word without walking the positions of its
-- trigrams through the whole index (docs/queries.md#related).
--
-- A run is a longest stretch of letters, digits and combining marks (and NULs) of an
-- item's title, summary, questions, atoms or project, as written (recall_core::runs).
-- Wherever the trigram tokenizer finds a word of a prompt in those columns, the word
-- lies inside one run (tests/runs.rs checks it against FTS5 under each of its
-- foldings): the items holding a word are the items of the runs an index of the runs
-- alone finds it in. Splitting text into runs is code, not SQL, so these triggers only
-- keep the tables from saying anything untrue: a write to an item's own text removes
-- its runs and lists it in items_runs_pending; recall makes the runs of the pending
-- items when it commits a write, when it migrates and in `recall optimize`. While an
-- item is pending the first prompt does not use the runs (it asks the index of the
-- items, as before), so an item written by any other program is found all the same.

-- Each run once.
create table items_runs (
  id  integer primary key,
  run text not null unique
) strict;

-- The runs indexed alone, with the library's tokenizer (the CLI replaces the clause
-- below, as in 0001), kept in step with items_runs by its triggers.
create virtual table items_runs_fts using fts5 (
  run,
  content = 'items_runs', content_rowid = 'id',
  tokenize = 'trigram remove_diacritics 1'
);

create trigger items_runs_after_insert after insert on items_runs begin
  insert into items_runs_fts (rowid, run) values (new.id, new.run);
end;

create trigger items_runs_after_delete after delete on items_runs begin
  insert into items_runs_fts (items_runs_fts, rowid, run) values ('delete', old.id, old.run);
end;

-- The items of each run, and (by the index) the runs of each item.
create table items_run_items (
  run     integer not null,
  item_id integer not null,
  primary key (run, item_id)
) strict, without rowid;

create index items_run_items_by_item on items_run_items (item_id);

-- A run no item holds any more goes, with its text (`recall forget` leaves no trace).
create trigger items_run_items_after_delete after delete on items_run_items
when not exists (select 1 from items_run_items where run = old.run) begin
  delete from items_runs where id = old.run;
end;

-- The items whose runs are not made yet.
create table items_runs_pending (
  item_id integer primary key
) strict;

insert into items_runs_pending (item_id) select id from items;

-- An item whose own text changes is made pending again; a deleted one takes its runs.
-- INSERT OR REPLACE removes the old row without a delete trigger: the insert trigger
-- removes the runs an earlier row of the id left.
create trigger items_runs_after_insert_item after insert on items begin
  delete from items_run_items where item_id = new.id;
  insert or ignore into items_runs_pending (item_id) values (new.id);
end;

create trigger items_runs_after_update_item
after update of id, title, summary, questions, atoms, project on items begin
  delete from items_run_items where item_id = old.id;
  delete from items_runs_pending where item_id = old.id;
  insert or ignore into items_runs_pending (item_id) values (new.id);
end;

create trigger items_runs_after_delete_item after delete on items begin
  delete from items_run_items where item_id = old.id;
  delete from items_runs_pending where item_id = old.id;
end;
