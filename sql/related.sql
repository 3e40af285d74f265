-- related: the first-prompt rule. The prompt's distinctive words (recall_prompt_terms);
-- fewer than 2: nothing. Search with those words (each quoted, OR-ed, normal scoring),
-- take the first 8, keep a result only when recall_related(prompt, title, summary) = 1,
-- and return at most 3 (fewer with :limit).
--
-- Parameters: :prompt; :project (optional); :tokenizer; :sources (JSON array of glob
-- patterns, NULL: all); :now, :half_life, :weight as in search.
with
terms as (
  select group_concat(value, ' ') as words, count(*) as n
  from json_each(recall_prompt_terms(:prompt))
),
-- The project's column filter, where FTS5 finds the project by it (see search.sql).
project_filter as (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', :project, :tokenizer) as f)
),
pool as (
  select f.rowid as id,
         bm25(items_fts, 2.0, 1.0, 1.5, 1.5,
              case when :project is null then 0.5 else 0.0 end) as bm25
  from terms
  join items_fts as f
  where terms.n >= 2
    and items_fts match (
          '(' || recall_match(terms.words, :tokenizer) || ')'
          -- The project filters inside FTS5 too (see search.sql), then exactly below.
          || (select f from project_filter))
    and (coalesce(:project, :sources) is null
         or exists (
           select 1 from items as i
           where i.id = f.rowid
             and (:project is null or i.project = :project)
             and recall_source_allowed(i.source, :sources)))
  order by bm25
  limit 200
),
first8 as (
  select pool.id, recall_score(pool.bm25, i.occurred_at, :now, :half_life, :weight) as score
  from pool
  join items as i on i.id = pool.id
  order by score desc, i.occurred_at desc, i.id desc
  limit 8
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, first8.score,
       recall_overlap(:prompt, i.title, i.summary) as overlap
from first8
join items as i on i.id = first8.id
where recall_related(:prompt, i.title, i.summary) = 1
order by first8.score desc, i.occurred_at desc, i.id desc
limit recall_limit(:limit, 3, 3);
