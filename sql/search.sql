-- search: two-stage literal search.
--
-- Stage 1 (FTS5): match the query's terms, apply every filter, order by bm25 and keep
-- the first :pool rows. Stage 2: re-rank that pool by recency with recall_score and
-- return the first :limit rows. Recency only reorders the pool: it never brings in an
-- item that did not match.
--
-- Parameters (unset = NULL = the default):
--   :query           free text; nothing in it acts as an FTS5 operator (unset: no results)
--   :match           instead of :query, a ready expression of recall_match (the CLI's
--                    common-term pruning passes the pruned one here)
--   :tokenizer       the library's tokenizer (sets the minimum term length); default trigram
--   :drop_stopwords  1 (default) drops stop words while another term remains; 0 keeps all
--   :sources         JSON array of glob patterns of readable sources; NULL: all sources
--   :project, :source            exact filters
--   :since, :until   time bounds: since inclusive, until exclusive; bare dates are UTC
--   :pool            stage-1 pool size, default 200, clamped to 10..5000
--   :limit           default :default_limit (10), at most :max_limit (50)
--   :now, :half_life, :weight     recency: default the current time, 90 days, 0.3
with
-- The project also filters inside FTS5 (a column filter), so that a small project costs
-- only its own matches; the exact check below makes it exact. Used only where FTS5 finds
-- the project by it: a name in which the tokenizer sees no token (too short, accents
-- only) would match nothing there. substr(…, 6) drops the filter's leading ' AND '.
project_filter as (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', :project, :tokenizer) as f)
),
pool as (
  select f.rowid as id,
         -- Scoped to one project, the project column would score the same for every
         -- hit: it weighs 0 there, and 0.5 otherwise.
         bm25(items_fts, 2.0, 1.0, 1.5, 1.5,
              case when :project is null then 0.5 else 0.0 end) as bm25
  from items_fts as f
  where items_fts match (
          -- No query at all matches nothing ('""'), as an empty one does.
          '(' || coalesce(:match, recall_match(:query, :tokenizer,
                                               coalesce(:drop_stopwords, 1)), '""') || ')'
          || (select f from project_filter))
    -- Filters that FTS5 cannot apply read the item; without filters, nothing is read.
    and (coalesce(:project, :source, :since, :until, :sources) is null
         or exists (
           select 1 from items as i
           where i.id = f.rowid
             and (:project is null or i.project = :project)
             and (:source is null or i.source = :source)
             and (:since is null or i.occurred_at >= recall_time(:since))
             and (:until is null or i.occurred_at < recall_time(:until))
             and recall_source_allowed(i.source, :sources)))
  order by bm25
  limit max(10, min(5000, coalesce(:pool, 200)))
),
scored as (
  select pool.id, -pool.bm25 as relevance,
         recall_score(pool.bm25, i.occurred_at, :now, :half_life, :weight) as score
  from pool
  join items as i on i.id = pool.id
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, s.score, s.relevance
from scored as s
join items as i on i.id = s.id
order by s.score desc, i.occurred_at desc, i.id desc
limit recall_limit(:limit, coalesce(:default_limit, 10), coalesce(:max_limit, 50));
