-- 0008: the keys of the items' atom lines, so that the session hook finds the earlier
-- items holding a command, or an error line, by one indexed lookup instead of a
-- full-text query of the line's words (docs/cli.md#after-a-failure).
--
-- A key is a number made of an atom line read through the hook's rule of sameness
-- (cli/src/masked.rs: a command with its paths, numbers and quoted values masked; an
-- error line with its paths and digits masked): the first 8 bytes of SHA-256 of the
-- kind and the masked line. The rule is code, not SQL, so these triggers only keep the
-- table from saying anything untrue: a write to an item's atoms removes its keys and
-- lists the item in items_atom_keys_pending; recall fills the keys of the pending items
-- when it commits a write, when it migrates and in `recall optimize`. While an item is
-- pending the hook does not use the keys (it reads the full-text index, as before), so
-- an item written by any other program is found all the same.

-- With the item's time, so that the items holding a line are read newest first, or from
-- a time on, in the key's own order.
create table items_atom_keys (
  key         integer not null,
  occurred_at text not null,
  item_id     integer not null,
  primary key (key, occurred_at, item_id)
) strict, without rowid;

-- An item's keys are removed with it.
create index items_atom_keys_by_item on items_atom_keys (item_id);

-- The items whose keys are not made yet.
create table items_atom_keys_pending (
  item_id integer primary key
) strict;

insert into items_atom_keys_pending (item_id) select id from items where atoms <> '';

-- An item whose atoms or time change is made pending again.
-- INSERT OR REPLACE removes the old row without a delete trigger: the insert trigger
-- removes the keys an earlier row of the id left.
create trigger items_atom_keys_after_insert after insert on items begin
  delete from items_atom_keys where item_id = new.id;
  insert or ignore into items_atom_keys_pending (item_id)
    select new.id where new.atoms <> '';
end;

create trigger items_atom_keys_after_update after update of id, atoms, occurred_at on items begin
  delete from items_atom_keys where item_id = old.id;
  delete from items_atom_keys_pending where item_id = old.id;
  insert or ignore into items_atom_keys_pending (item_id)
    select new.id where new.atoms <> '';
end;

create trigger items_atom_keys_after_delete after delete on items begin
  delete from items_atom_keys where item_id = old.id;
  delete from items_atom_keys_pending where item_id = old.id;
end;
