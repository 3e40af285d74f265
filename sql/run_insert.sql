-- run_insert: a run no item held before (its trigger indexes it in items_runs_fts).
insert into items_runs (run) values (:run);
