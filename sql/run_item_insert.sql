-- run_item_insert: an item holds a run.
insert or ignore into items_run_items (run, item_id) values (:run, :item_id);
