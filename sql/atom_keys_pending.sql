-- atom_keys_pending: the items whose atom lines have no keys yet (migration 0008), with
-- their atoms and time, at most :batch of them; recall makes their keys
-- (cli/src/library/atom_keys.rs). An item deleted since has none to make.
select p.item_id as id, i.atoms, i.occurred_at
from items_atom_keys_pending as p
left join items as i on i.id = p.item_id
order by p.item_id
limit :batch;
