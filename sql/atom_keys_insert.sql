-- atom_keys_insert: one key of an item's atom lines.
insert or ignore into items_atom_keys (key, occurred_at, item_id)
values (:key, :occurred_at, :item_id);
