-- `recall status` on a library whose vectors were made before item_vector_contexts
-- existed: as sql/status_vectors.sql, the vectors' contexts not compared.
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
   where v.item_imported_at is not i.imported_at) as stale;
