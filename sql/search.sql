-- search: two-stage literal search.
--
-- Stage 1 (FTS5): match the query's terms, apply every filter, order by bm25 and keep
-- the first :pool rows. Context: in a conversation, a log or a run of notes the answer
-- often sits next to the item the words matched, so each pool item lends a share
-- (:context_weight) of its relevance to its neighbours in time; a neighbour outside the
-- pool joins it. Vectors (optional): with :nearest, the list of sql/nearest.sql, the
-- literal list (the pool and its neighbours, by relevance) and the nearest items are
-- fused (:fusion: convex, by their scores, or rrf, by reciprocal rank), and an item of
-- either list may be an answer. A period the query names ("in August 2023", "on
-- 2026-03-02": recall_period) weighs the items dated in it. Stage 2:
-- re-rank by recency with recall_score (with vectors: the literal list, before the
-- fusion) and return the first :limit rows. Recency only reorders: it never brings in an
-- item.
--
-- Parameters (unset = NULL = the default):
--   :query           free text; nothing in it acts as an FTS5 operator (unset: no results)
--   :match           instead of :query, a ready expression of recall_match (the CLI's
--                    common-term pruning passes the pruned one here)
--   :tokenizer       the library's tokenizer (sets the minimum term length, and under
--                    trigram the query's words stand as their stems); unset: trigram's
--                    minimum length without stems (`recall sql` passes the library's)
--   :drop_stopwords  1 (default) drops stop words while another term remains; 0 keeps all
--   :sources         JSON array of glob patterns of readable sources; NULL: all sources
--   :project, :source            exact filters; the project's answer also holds the
--                    global items (visible in every project)
--   :kinds           JSON array of kinds: only items of one of them; NULL: any item
--   :since, :until   time bounds: since inclusive, until exclusive; bare dates are UTC
--   :pool            stage-1 pool size, default 200, clamped to 10..5000
--   :limit           default :default_limit (10), at most :max_limit (50)
--   :now, :half_life, :weight     recency: default the current time, 90 days, 0.1 (lower
--                    than recall_score's own 0.3: recency breaks near ties, docs/queries.md)
--   :period_weight   an item dated in the period the query names counts 1 + this times
--                    its relevance, 0 to 10, default 1; 0: dates in the query are words
--   :context_weight  the share of its relevance a pool item lends its neighbours,
--                    0 to 1, default 0.3; 0 turns the stage off
--   :context_radius  how many items before and after it are its neighbours, default 2
--   :context_gap     minutes: no neighbour further apart in time, default 30
--   :context_column_weight  the bm25 weight of the neighbours' titles each item is
--                    indexed with (its context column), default 0.7; 0: they do not count
--   :nearest         a JSON array of the items nearest the query, nearest first, each
--                    {"id": …, "distance": …} (the rows of sql/nearest.sql with the same
--                    filters); bare ids are fused by rrf; NULL: literal search
--   :fusion          'convex' (default) or 'rrf'
--   :vector_share    convex: the vector list's share of the say, 0 to 1, default 0.4
--   :rrf_k           rrf: reciprocal rank fusion's k, default 60
--   :literal_weight, :vector_weight   rrf: the weights of the two lists, default 1 and 0.9
--
-- Columns: id, date, title, project, source, kind, global, score, relevance; matched_by ('terms';
-- 'context' for an item that is there only as a neighbour; 'vector' for one that is
-- there only as a near item); context_of (the pool item that lent it a share, the most
-- relevant of its neighbours; NULL when none did); with :nearest, literal_rank and
-- vector_rank (its place in each list, NULL when not in it) and fused (the score then),
-- all three NULL without.
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
pool as materialized (
  select id, bm25 from (
    select f.rowid as id,
           -- Scoped to one project, the project column would score the same for every
           -- hit: it weighs 0 there, and 0.5 otherwise. The neighbours' titles (context)
           -- weigh :context_column_weight.
           bm25(items_fts, 2.0, 1.0, 1.5, 1.5,
                case when :project is null then 0.5 else 0.0 end,
                max(0.0, coalesce(:context_column_weight, 0.7))) as bm25
    from items_fts as f
    where items_fts match (
            -- No query at all matches nothing ('""'), as an empty one does. At weight 0
            -- the neighbours' titles do not match either.
            case when coalesce(:context_column_weight, 0.7) > 0 then ''
                 else '{title summary questions atoms project} : ' end
            || '(' || coalesce(:match, recall_match(:query, :tokenizer,
                                                 coalesce(:drop_stopwords, 1)), '""') || ')'
            || (select f from project_filter))
      -- Filters that FTS5 cannot apply read the item; without filters, nothing is read.
      and (coalesce(:project, :source, :since, :until, :kinds, :sources) is null
           or exists (
             select 1 from items as i
             where i.id = f.rowid
               and (:project is null or i.project = :project)
               and (:source is null or i.source = :source)
               and (:since is null or i.occurred_at >= recall_time(:since))
               and (:until is null or i.occurred_at < recall_time(:until))
               and (:kinds is null or i.kind in (select value from json_each(:kinds)))
               and recall_source_allowed(i.source, :sources)))
    union all
    -- Under a project filter, the global items of other projects (visible in every
    -- project) match too: each read by its id from their own index, few as they are.
    select f.rowid,
           bm25(items_fts, 2.0, 1.0, 1.5, 1.5, 0.0,
                max(0.0, coalesce(:context_column_weight, 0.7)))
    from items as g
    cross join items_fts as f on f.rowid = g.id
    where :project is not null and g.global = 1
      and (g.project is null or g.project <> :project)
      and items_fts match (
            case when coalesce(:context_column_weight, 0.7) > 0 then ''
                 else '{title summary questions atoms project} : ' end
            || '(' || coalesce(:match, recall_match(:query, :tokenizer,
                                                 coalesce(:drop_stopwords, 1)), '""') || ')')
      and (:source is null or g.source = :source)
      and (:since is null or g.occurred_at >= recall_time(:since))
      and (:until is null or g.occurred_at < recall_time(:until))
      and (:kinds is null or g.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(g.source, :sources))
  order by bm25
  limit max(10, min(5000, coalesce(:pool, 200)))
),
context as (
  select max(0.0, min(1.0, coalesce(:context_weight, 0.3))) as weight,
         max(0, min(10, coalesce(:context_radius, 2))) as radius,
         max(0.0, coalesce(:context_gap, 30)) as gap
),
-- The pool items that lend: dated ones, when context is on. lo and hi bound their
-- neighbours' times in the stored form, so that the time indexes find them.
lenders as materialized (
  select p.id, -p.bm25 as relevance, i.project, i.source, i.occurred_at,
         strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at, '-' || c.gap || ' minutes') as lo,
         strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at, '+' || c.gap || ' minutes') as hi
  -- CROSS JOIN fixes the order: settings, then the pool, then each item by its id. Left
  -- to itself, SQLite 3.54 scans every item against a Bloom filter of the pool.
  from context as c
  cross join pool as p
  cross join items as i on i.id = p.id
  where c.weight > 0 and c.radius > 0 and i.occurred_at is not null
),
-- A lender's neighbours: the :context_radius items before it and after it, in the order
-- (occurred_at, id), in its project, or among the items of its source without a
-- project. Positions count the readable items only (:sources): an item the caller may
-- not read is no one's neighbour, as if it were not there; the other filters apply to
-- the neighbours below. Each side reads two stretches of the (project, occurred_at) or
-- (source, occurred_at) index: the items at the lender's time with the next ids (the
-- index holds the id last, so that this seeks), then the later (or earlier) times; a
-- single range over both would read every item sharing the lender's time.
near as (
  select l.id as of_id, l.relevance, n.id
  from lenders as l
  cross join items as n on n.id in (
    select id from (
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where y.project = l.project and y.occurred_at = l.occurred_at and y.id > l.id
          and (:sources is null or recall_source_allowed(y.source, :sources))
        order by y.id limit (select radius from context))
      union all
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where y.project = l.project and y.occurred_at > l.occurred_at
          and y.occurred_at <= l.hi
          and (:sources is null or recall_source_allowed(y.source, :sources))
        order by y.occurred_at, y.id limit (select radius from context))
      order by occurred_at, id limit (select radius from context)))
  union all
  select l.id, l.relevance, n.id
  from lenders as l
  cross join items as n on n.id in (
    select id from (
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where y.project = l.project and y.occurred_at = l.occurred_at and y.id < l.id
          and (:sources is null or recall_source_allowed(y.source, :sources))
        order by y.id desc limit (select radius from context))
      union all
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where y.project = l.project and y.occurred_at < l.occurred_at
          and y.occurred_at >= l.lo
          and (:sources is null or recall_source_allowed(y.source, :sources))
        order by y.occurred_at desc, y.id desc limit (select radius from context))
      order by occurred_at desc, id desc limit (select radius from context)))
  union all
  select l.id, l.relevance, n.id
  from lenders as l
  cross join items as n on n.id in (
    select id from (
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where l.project is null and y.source = l.source and y.project is null
          and y.occurred_at = l.occurred_at and y.id > l.id
        order by y.id limit (select radius from context))
      union all
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where l.project is null and y.source = l.source and y.project is null
          and y.occurred_at > l.occurred_at and y.occurred_at <= l.hi
        order by y.occurred_at, y.id limit (select radius from context))
      order by occurred_at, id limit (select radius from context)))
  union all
  select l.id, l.relevance, n.id
  from lenders as l
  cross join items as n on n.id in (
    select id from (
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where l.project is null and y.source = l.source and y.project is null
          and y.occurred_at = l.occurred_at and y.id < l.id
        order by y.id desc limit (select radius from context))
      union all
      select id, occurred_at from (
        select y.id, y.occurred_at from items as y
        where l.project is null and y.source = l.source and y.project is null
          and y.occurred_at < l.occurred_at and y.occurred_at >= l.lo
        order by y.occurred_at desc, y.id desc limit (select radius from context))
      order by occurred_at desc, id desc limit (select radius from context)))
),
-- What each neighbour receives: the share of its most relevant lender.
lent as materialized (
  select id, of_id, share
  from (select n.id, n.of_id, c.weight * n.relevance as share,
               row_number() over (partition by n.id order by n.relevance desc, n.of_id)
                 as k
        from near as n
        join context as c)
  where k = 1
),
-- The vector channel's list, nearest first (none without :nearest), read from its JSON
-- once (each candidate looks itself up in it). Each entry is {"id", "distance"} (the
-- rows of sql/nearest.sql), or a bare id: a list of bare ids carries no similarity, and
-- is fused by reciprocal rank whatever :fusion says.
nearest as materialized (
  select cast(case when type = 'object' then json_extract(value, '$.id') else value end
              as integer) as id,
         cast(key as integer) + 1 as rank,
         1.0 - case when type = 'object' then json_extract(value, '$.distance') end
           as similarity
  from json_each(coalesce(:nearest, '[]'))
),
-- The fusion, and the vector list's span of similarities: its nearest item's (best) and
-- its last one's (least). An item in the lowest quarter of that span is too far to join
-- by its vector alone: a near item joins, a far one does not.
fusion as materialized (
  select f.name, f.best, f.least,
         max(0.0, min(1.0, coalesce(:vector_share, 0.4))) as share,
         f.least + 0.25 * (f.best - f.least) as floor
  from (select case when :nearest is null then null
                    when coalesce(:fusion, 'convex') = 'rrf'
                         or exists (select 1 from nearest where similarity is null) then 'rrf'
                    else 'convex' end as name,
               (select max(similarity) from nearest) as best,
               (select min(similarity) from nearest) as least) as f
),
-- Items that join the pool: neighbours, then near items that are neither in the pool
-- nor neighbours.
joiners as (
  select l.id, 'context' as matched_by, l.of_id, l.share
  from lent as l
  where l.id not in (select id from pool)
  union all
  select v.id, 'vector', null, 0.0
  from nearest as v
  cross join fusion as u
  where v.id not in (select id from pool) and v.id not in (select id from lent)
    and (u.name = 'rrf' or v.similarity >= u.floor)
),
-- The pool with the shares it received, and the items that join it: those the filters
-- let through, the same filters as stage 1's.
candidates as (
  select p.id, -p.bm25 as own, 'terms' as matched_by, l.of_id, coalesce(l.share, 0.0) as share
  from pool as p
  left join lent as l on l.id = p.id
  union all
  select j.id, 0.0, j.matched_by, j.of_id, j.share
  from joiners as j
  -- Each joiner read by its id (a join here lets SQLite 3.40 build a Bloom filter over
  -- the whole items table).
  where coalesce(:project, :source, :since, :until, :kinds, :sources) is null
        or exists (
          select 1 from items as i
          where i.id = j.id
            and (:project is null or i.project = :project or i.global = 1)
            and (:source is null or i.source = :source)
            and (:since is null or i.occurred_at >= recall_time(:since))
            and (:until is null or i.occurred_at < recall_time(:until))
            and (:kinds is null or i.kind in (select value from json_each(:kinds)))
            and recall_source_allowed(i.source, :sources))
),
-- A period the query names: its items count (1 + weight) times their relevance. The
-- query's dates are searched as words too; this finds the items dated then, whose words
-- seldom say when they were written. Read from :query (a :match alone names none).
period as materialized (
  select json_extract(p, '$.since') as since, json_extract(p, '$.until') as until,
         max(0.0, min(10.0, coalesce(:period_weight, 1))) as weight
  from (select recall_period(:query) as p)
),
-- Stage 2: recency re-ranks the literal list (recall_score). With the vector channel,
-- that order is the literal list's, fused with the vector list's. Recency applies to the
-- literal list, not to the fusion: fused scores lie close together, and recency would
-- reorder them wholesale (docs/vectors.md has the figures).
scored as (
  select id, relevance, matched_by, context_of,
         recall_score(-relevance, occurred_at, :now, :half_life, coalesce(:weight, 0.1))
           as literal_score,
         occurred_at, vector_rank, similarity
  from (select c.id, c.matched_by, c.of_id as context_of, i.occurred_at,
               (c.own + c.share)
                 * case when i.occurred_at >= d.since and i.occurred_at < d.until
                        then 1.0 + d.weight else 1.0 end as relevance,
               v.rank as vector_rank, v.similarity
        from candidates as c
        cross join period as d
        cross join items as i on i.id = c.id
        left join nearest as v on v.id = c.id)
),
ranked as (
  select s.*,
         case when :nearest is not null and s.matched_by <> 'vector' then
           row_number() over (partition by s.matched_by = 'vector'
                              order by s.literal_score desc, s.occurred_at desc, s.id desc)
         end as literal_rank,
         max(s.literal_score) over () as best_literal
  from scored as s
),
-- How far the vector list is trusted with the literal items' order: the share of the
-- first 10 of each list (a page of results) that the two lists have in common.
agreement as (
  select count(*) / 10.0 as share
  from ranked
  where literal_rank <= 10 and vector_rank <= 10
),
-- The fusion. rrf: weight / (k + rank), summed over the two lists. convex (docs/vectors.md):
-- each list's score on one scale from 0 to 1 (the literal score over the best one, the
-- similarity between the list's least and best), combined as (1 - w) * literal + w *
-- near. An item of the literal list has w = vector_share * agreement: the vector list
-- reorders the literal answer only as far as the two lists agree. An item found only by
-- its vector has w = vector_share: it ranks by its nearness, below the literal items
-- that score higher.
fused as (
  select r.*,
         case u.name
           when 'rrf' then
             coalesce(recall_rrf(r.literal_rank, coalesce(:rrf_k, 60),
                                 coalesce(:literal_weight, 1)), 0.0)
             + coalesce(recall_rrf(r.vector_rank, coalesce(:rrf_k, 60),
                                   coalesce(:vector_weight, 0.9)), 0.0)
           when 'convex' then
             recall_convex(case when r.matched_by <> 'vector' then r.literal_score end,
                           r.best_literal, r.similarity, u.least, u.best,
                           case when r.matched_by = 'vector' then u.share
                                else u.share * (select share from agreement) end)
         end as fused
  from ranked as r
  cross join fusion as u
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
       coalesce(f.fused, f.literal_score) as score, f.relevance, f.matched_by,
       f.context_of, f.literal_rank, f.vector_rank, f.fused
from fused as f
cross join items as i on i.id = f.id
order by score desc, i.occurred_at desc, i.id desc
limit recall_limit(:limit, coalesce(:default_limit, 10), coalesce(:max_limit, 50));
