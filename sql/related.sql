-- related: the first-prompt rule, what to show when a session starts. The prompt's
-- distinctive words (recall_prompt_terms); fewer than 2: nothing. Search with those words
-- (each quoted, OR-ed, normal scoring), take the first 8 and judge each: the words it
-- shares are the prompt's words found as whole words in its title or summary. Return at
-- most 3 kept (fewer with :limit), best first.
--
-- The rule (:rule):
--   'idf' (the default)  keep a candidate that shares 2 or more words that are rare in the
--       library, alone and together:
--       - their weights add up to :min_weight (default 1.2) or more. A word's weight is
--         recall_idf(df, N) = ln(N / df) / ln(N), for a library of N items, df of which
--         FTS5 finds the word in (under trigram: as a substring): 1 for a word in one
--         item, 0.5 in the square root of N, 0 in every item. Words of total weight W
--         that occur independently are shared by N^(1 - W) items by chance: at 1, by
--         fewer than one, whatever the library's size;
--       - and the words together weigh :min_joint_weight (default 0.5) or more:
--         recall_idf(the items FTS5 finds all of them in, N); at 0.5, they occur together
--         in at most the square root of N items. Words that come together (a template's
--         words, a name and what it always does) weigh less together than their sum.
--       N and df count only the items of the readable sources.
--   'jezero'  keep a candidate that shares 2 or more words (recall_related = 1).
--
-- Parameters: :prompt; :project (optional: the project's items and the global ones,
-- visible in every project); :kinds (JSON array of kinds: only items of one of them;
-- NULL: any); :tokenizer; :sources (JSON array of glob patterns, NULL: all); :now,
-- :half_life, :weight as in search; :rule, :min_weight, :min_joint_weight; :candidates
-- = 1 returns every judged candidate with its verdict (for --explain).
--
-- Columns: id, date, title, project, source, kind, global, score; overlap (how many
-- words it shares), weight (their weights' sum), joint_items (the items with all of
-- them), joint_weight, shared (a JSON array of {word, items, weight}); the weights are
-- NULL under 'jezero' unless :candidates = 1. verdict: 'kept'; 'few_words' (fewer than
-- 2 shared); 'low_weight' (below :min_weight); 'common_together' (below
-- :min_joint_weight); 'over_limit' (kept by the rule, but past :limit).
with
terms as (
  select value as word from json_each(recall_prompt_terms(:prompt))
),
rule as (
  select coalesce(:rule, 'idf') as name,
         coalesce(:min_weight, 1.2) as min_weight,
         coalesce(:min_joint_weight, 0.5) as min_joint_weight,
         (coalesce(:rule, 'idf') <> 'jezero' or coalesce(:candidates, 0) = 1) as weighs
),
-- The project's column filter, where FTS5 finds the project by it (see search.sql).
project_filter as (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', :project, :tokenizer) as f)
),
pool as (
  select id, bm25 from (
    select f.rowid as id,
           bm25(items_fts, 2.0, 1.0, 1.5, 1.5,
                case when :project is null then 0.5 else 0.0 end, 0.0) as bm25
    from (select group_concat(word, ' ') as words, count(*) as n from terms) as t
    join items_fts as f
    where t.n >= 2
      and items_fts match (
            -- Not the neighbours' titles (the context column): an item's own words.
            '{title summary questions atoms project} : (' || recall_match(t.words, :tokenizer) || ')'
            -- The project filters inside FTS5 too (see search.sql), then exactly below.
            || (select f from project_filter))
      and (coalesce(:project, :kinds, :sources) is null
           or exists (
             select 1 from items as i
             where i.id = f.rowid
               and (:project is null or i.project = :project)
               and (:kinds is null or i.kind in (select value from json_each(:kinds)))
               and recall_source_allowed(i.source, :sources)))
    union all
    -- Under a project filter, the global items of other projects match too (see
    -- search.sql).
    select f.rowid, bm25(items_fts, 2.0, 1.0, 1.5, 1.5, 0.0, 0.0)
    from (select group_concat(word, ' ') as words, count(*) as n from terms) as t
    cross join items as g
    cross join items_fts as f on f.rowid = g.id
    where t.n >= 2 and :project is not null and g.global = 1
      and (g.project is null or g.project <> :project)
      and items_fts match (
            '{title summary questions atoms project} : (' || recall_match(t.words, :tokenizer) || ')')
      and (:kinds is null or g.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(g.source, :sources))
  order by bm25
  limit 200
),
first8 as (
  select pool.id,
         recall_score(pool.bm25, i.occurred_at, :now, :half_life, coalesce(:weight, 0.1))
           as score
  from pool
  join items as i on i.id = pool.id
  order by score desc, i.occurred_at desc, i.id desc
  limit 8
),
-- (Materialized: each is read more than once, and must not be computed again.)
shared as materialized (
  select c.id, t.word
  from first8 as c
  join items as i on i.id = c.id
  join terms as t
  where recall_overlap(t.word, i.title, i.summary) = 1
),
-- How many items there are, and how many FTS5 finds a match in: only where the rule
-- weighs words (for a candidate that shares two or more, unless all are explained), and
-- among the readable items.
library as materialized (
  select count(*) as n from items
  where (select weighs from rule)
    and (:sources is null or recall_source_allowed(source, :sources))
),
words as materialized (
  select s.word,
         (select count(*) from items_fts as f
          where items_fts match '{title summary questions atoms project} : "' || s.word || '"'
            and (:sources is null
                 or exists (select 1 from items as i
                            where i.id = f.rowid
                              and recall_source_allowed(i.source, :sources)))) as items
  from (select distinct word from shared
        where coalesce(:candidates, 0) = 1
           or id in (select id from shared group by id having count(*) >= 2)) as s
  where (select weighs from rule)
),
judged as materialized (
  select c.id, c.score, count(s.word) as overlap,
         sum(recall_idf(w.items, (select n from library))) as weight,
         json_group_array(json_object(
             'word', s.word, 'items', w.items,
             'weight', round(recall_idf(w.items, (select n from library)), 3)))
           filter (where s.word is not null) as shared
  from first8 as c
  left join shared as s on s.id = c.id
  left join words as w on w.word = s.word
  group by c.id
),
-- The items with all the shared words (prompt words are letters and digits only, so
-- quoting them is safe), for the candidates with two or more whose weights add up to
-- enough (unless all are explained).
together as materialized (
  select judged.*,
         case when judged.overlap >= 2 and (select weighs from rule)
                   and (coalesce(:candidates, 0) = 1
                        or judged.weight >= (select min_weight from rule))
              then (select count(*) from items_fts as f
                    where items_fts match (select '{title summary questions atoms project} : ('
                                                  || group_concat('"' || s.word || '"', ' AND ') || ')'
                                           from shared as s where s.id = judged.id)
                      and (:sources is null
                           or exists (select 1 from items as i
                                      where i.id = f.rowid
                                        and recall_source_allowed(i.source, :sources))))
         end as joint_items
  from judged
),
verdicts as (
  select together.*, recall_idf(joint_items, (select n from library)) as joint_weight,
         i.occurred_at,
         case when (select name from rule) = 'jezero'
                then case when recall_related(:prompt, i.title, i.summary) = 1
                          then 'kept' else 'few_words' end
              when together.overlap < 2 then 'few_words'
              when together.weight < (select min_weight from rule) then 'low_weight'
              when recall_idf(joint_items, (select n from library))
                   < (select min_joint_weight from rule) then 'common_together'
              else 'kept' end as verdict
  from together
  join items as i on i.id = together.id
),
ranked as (
  select verdicts.*,
         row_number() over (partition by verdict = 'kept'
                            order by score desc, occurred_at desc, id desc) as place
  from verdicts
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
       ranked.score,
       ranked.overlap, ranked.weight, ranked.joint_items, ranked.joint_weight,
       coalesce(ranked.shared, '[]') as shared,
       case when ranked.verdict = 'kept' and ranked.place > recall_limit(:limit, 3, 3)
            then 'over_limit' else ranked.verdict end as verdict
from ranked
join items as i on i.id = ranked.id
where (ranked.verdict = 'kept' and ranked.place <= recall_limit(:limit, 3, 3))
   or coalesce(:candidates, 0) = 1
order by ranked.score desc, i.occurred_at desc, i.id desc;
