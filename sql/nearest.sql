-- nearest: the vector channel's list, the items whose embeddings are nearest the
-- query's (sqlite-vec). Its ids, nearest first, are search.sql's :nearest.
--
-- Needs sqlite-vec's vec0 module (the recall CLI has it built in; in the shell, .load
-- sqlite-vec's vec0 next to this extension) and a library with vectors (`recall embed`).
--
-- Parameters (unset = NULL = the default):
--   :query_vector  the query's embedding, as a JSON array of floats (or sqlite-vec's
--                  float32 blob), of the library's dimensions (recall_meta's
--                  vector_dimensions)
--   :k             how many, default 200 (search passes its pool), clamped to 10..5000
--   :project, :source, :since, :until, :kinds, :sources   the search's filters, as in
--                  search.sql (the project's global items pass the project filter)
--
-- Columns: id, distance (the cosine distance, 0 to 2), rank (1 for the nearest).
with
-- Without a filter vec0 ranks every vector. With one, vec0 ranks only the items that
-- pass it (`rowid in`, applied during its scan), so the k it returns all pass and none
-- is lost to a filter applied after. The branch whose condition is false is not run.
nearest as materialized (
  select v.rowid as id, v.distance, v.item_imported_at
  from item_vectors as v
  where v.embedding match :query_vector
    and v.k = max(10, min(5000, coalesce(:k, 200)))
    and coalesce(:project, :source, :since, :until, :kinds, :sources) is null
  union all
  select v.rowid, v.distance, v.item_imported_at
  from item_vectors as v
  where v.embedding match :query_vector
    and v.k = max(10, min(5000, coalesce(:k, 200)))
    and coalesce(:project, :source, :since, :until, :kinds, :sources) is not null
    and v.rowid in (
      select i.id from items as i
      where (:project is null or i.project = :project or i.global = 1)
        and (:source is null or i.source = :source)
        and (:since is null or i.occurred_at >= recall_time(:since))
        and (:until is null or i.occurred_at < recall_time(:until))
        and (:kinds is null or i.kind in (select value from json_each(:kinds)))
        and recall_source_allowed(i.source, :sources))
)
select n.id, n.distance, row_number() over (order by n.distance, n.id) as rank
from nearest as n
-- A vector whose item was deleted or replaced outside recall (no trigger can reach vec0
-- in a host without it) is left out: it is not the item's. `recall embed` mends both.
where exists (select 1 from items as i
              where i.id = n.id and i.imported_at = n.item_imported_at)
order by rank;
