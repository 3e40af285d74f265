-- Two-stage search: FTS5 cuts a pool by bm25, recall_score re-ranks it by recency.
-- Parameters: :query (free text), :now (the reference time), :limit.
with pool as (
  select rowid as id, bm25(items_fts, 2.0, 1.0) as bm25
  from items_fts
  where items_fts match recall_match(:query, 'trigram', 1)
  order by bm25
  limit 200
)
select items.id, substr(items.occurred_at, 1, 10) as date, items.title,
       round(recall_score(pool.bm25, items.occurred_at, :now, 90, 0.3), 3) as score
from pool join items on items.id = pool.id
order by score desc
limit recall_limit(:limit, 10, 50);
