-- runs_done: an item whose runs are made.
delete from items_runs_pending where item_id = :item_id;
