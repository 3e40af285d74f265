-- atom_keys_newest: the newest :candidates items holding an atom line whose key is :key
-- (migration 0008), newest first; the session hook reads them one by one until it has
-- as many as it shows (sql/atom_key_item.sql).
select item_id as id
from items_atom_keys
where key = :key
order by occurred_at desc, item_id desc
limit :candidates;
