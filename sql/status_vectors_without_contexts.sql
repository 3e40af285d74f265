-- `recall status` on a library whose vectors were made before item_vector_contexts
-- existed: as sql/status_vectors.sql, the vectors' contexts not compared.
select
  (select count(*) from item_vectors) as vectors,
  (select count(*) from items
   where id not in (select rowid from item_vectors)) as missing,
  (select count(*) from items as i
   join item_vectors as v on v.rowid = i.id
   where v.item_imported_at is not i.imported_at) as stale;
