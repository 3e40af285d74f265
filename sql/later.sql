-- later: newer items on the same subject as an item.
--
-- 1. The subject is :query, or the item's title. Search the item's project (an item
--    without a project: its own source) among readable sources, for items at or after
--    the item's time (same time counts), 50 hits by pure relevance.
-- 2. The bar is 0.3 x the best relevance among the hits, the item itself included;
--    then the item is dropped and hits below the bar too.
-- 3. The 2 most relevant stay; the remaining places go to the newest of the rest.
-- 4. Newest first, at most :limit (default 5), matched_by = 'subject'.
-- 5. Nothing kept: the project's (or source's) newer items instead, newest first,
--    matched_by = 'project_timeline' (context, not evidence of a change).
--
-- Parameters: :item_id; :query (optional); :limit; :tokenizer; :kinds (JSON array of
-- kinds: only newer items of one of them; NULL: any); :sources (JSON array of glob
-- patterns, NULL: all). An item the caller may not read gives no rows.
--
-- Columns: id, date, title, project, source, kind, global, relevance, matched_by.
with
item as (
  select i.id, i.project, i.source, i.occurred_at, i.title
  from items as i
  where i.id = :item_id
    and recall_source_allowed(i.source, :sources)
),
lim as (
  select recall_limit(:limit, coalesce(:default_limit, 5), 50) as n
),
-- The project's column filter, where FTS5 finds the project by it (see search.sql).
project_filter as (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', item.project, :tokenizer) as f
        from item)
),
hits as (
  select f.rowid as id,
         -bm25(items_fts, 2.0, 1.0, 1.5, 1.5,
               case when item.project is null then 0.5 else 0.0 end, 0.0) as relevance
  from item
  join items_fts as f
  where items_fts match (
          -- Not the neighbours' titles (the context column): an item's own words.
          '{title summary questions atoms project} : ('
          || recall_match(coalesce(nullif(trim(:query), ''), item.title),
                              :tokenizer, 1) || ')'
          -- The project filters inside FTS5 too (see search.sql), then exactly below.
          || coalesce((select f from project_filter), ''))
    and exists (
      select 1 from items as i
      where i.id = f.rowid
        and (case when item.project is not null then i.project = item.project
                  else i.project is null and i.source = item.source end)
        and i.occurred_at >= item.occurred_at
        and (:kinds is null or i.kind in (select value from json_each(:kinds)))
        and recall_source_allowed(i.source, :sources))
  order by relevance desc, f.rowid desc
  limit 50
),
kept as (
  select hits.id, hits.relevance,
         row_number() over (order by hits.relevance desc, hits.id desc) as by_relevance
  from hits, item
  where hits.id <> item.id
    and hits.relevance >= 0.3 * (select max(relevance) from hits)
),
chosen as (
  select kept.id, kept.relevance
  from kept, lim
  where kept.by_relevance <= min(2, lim.n)
  union all
  select * from (
    select kept.id, kept.relevance
    from kept
    join items as i on i.id = kept.id
    where kept.by_relevance > 2
    order by i.occurred_at desc, i.id desc
    limit max((select n from lim) - 2, 0)
  )
)
select * from (
  select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
         chosen.relevance, 'subject' as matched_by
  from chosen
  join items as i on i.id = chosen.id
  union all
  select * from (
    select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
           null as relevance, 'project_timeline' as matched_by
    from items as i, item
    where not exists (select 1 from chosen)
      and i.id <> item.id
      and (case when item.project is not null then i.project = item.project
                else i.project is null and i.source = item.source end)
      and i.occurred_at >= item.occurred_at
      and (:kinds is null or i.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(i.source, :sources)
    order by i.occurred_at desc, i.id desc
    limit (select n from lim)
  )
)
order by date desc, id desc;
