-- runs_pending: the items whose runs are not made yet (migration 0009), with their own
-- text, at most :batch of them; recall splits it into runs (cli/src/library/runs.rs). An
-- item deleted since has none to make.
select p.item_id as id, i.title, i.summary, i.questions, i.atoms, i.project
from items_runs_pending as p
left join items as i on i.id = p.item_id
order by p.item_id
limit :batch;
