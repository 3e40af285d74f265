-- run_id: the id of a run of the items' own text, if some item holds it already.
select id from items_runs where run = :run;
