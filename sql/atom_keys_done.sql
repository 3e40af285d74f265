-- atom_keys_done: an item whose keys are made.
delete from items_atom_keys_pending where item_id = :item_id;
