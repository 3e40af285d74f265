-- `recall status` on a library with vectors (`recall embed`): how many vectors there
-- are, how many items have none, and how many have one older than their text (the
-- item's imported_at when the vector was made) or than their neighbours' titles (the
-- context it was made with, where item_vector_contexts records one). The last two are
-- what the next `recall embed` embeds. Under access globs (:sources, a JSON array;
-- NULL for every source) only the items of the sources they allow are counted.
with allowed as (
  select * from items
  where :sources is null or recall_source_allowed(source, :sources)
)
select
  (select count(*) from item_vectors
   where :sources is null or rowid in (select id from allowed)) as vectors,
  (select count(*) from allowed
   where id not in (select rowid from item_vectors)) as missing,
  (select count(*) from allowed as i
   join item_vectors as v on v.rowid = i.id
   left join item_vector_contexts as c on c.id = i.id
   where v.item_imported_at is not i.imported_at
      or (c.context is not null and c.context is not i.context)) as stale;
