-- atom_keys_after: the first :candidates items after the item :id of time :date holding
-- an atom line whose key is :key (migration 0008), oldest first: the sessions after an
-- error that ran the command again, for the session hook.
select item_id as id
from items_atom_keys
where key = :key and (occurred_at, item_id) > (:date, :id)
order by occurred_at, item_id
limit :candidates;
