-- atom_keys_any_pending: 1 where an item's atom lines have no keys yet (migration 0008).
select exists (select 1 from items_atom_keys_pending) as pending;
