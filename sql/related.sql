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
-- :half_life, :weight as in search; :rule, :min_weight, :min_joint_weight; :sample (the
-- items a common word is counted in, default 1000; 0: every word counted in every item);
-- :candidates = 1 returns every judged candidate with its verdict (for --explain).
--
-- Columns: id, date, title, project, source, kind, global, score; overlap (how many
-- words it shares), weight (their weights' sum), joint_items (the items with all of
-- them), joint_weight, shared (a JSON array of {word, items, weight}); the weights are
-- NULL under 'jezero' unless :candidates = 1. verdict: 'kept'; 'few_words' (fewer than
-- 2 shared); 'low_weight' (below :min_weight); 'common_together' (below
-- :min_joint_weight); 'over_limit' (kept by the rule, but past :limit).
--
-- docs/queries.md#related says why each step gives the rule's answer, and where it is an
-- approximation of it, by how much.
with recursive
terms as materialized (
  select key as place, value as word from json_each(recall_prompt_terms(:prompt))
),
rule as materialized (
  select coalesce(:rule, 'idf') as name,
         coalesce(:min_weight, 1.2) as min_weight,
         coalesce(:min_joint_weight, 0.5) as min_joint_weight,
         (coalesce(:rule, 'idf') <> 'jezero' or coalesce(:candidates, 0) = 1) as weighs
),
-- The project's column filter, where FTS5 finds the project by it (see search.sql).
project_filter as materialized (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', :project, :tokenizer) as f)
),
-- The items (FTS5's bm25 counts them all), the readable ones (the rule's N), and the
-- sample: where the library holds 4 times as many items as :sample or more, ten ranges of
-- ids spread evenly over it, :sample ids in all, read by FTS5 as a seek in each segment.
library as materialized (
  select items, first, last,
         case when :sources is null then items
              else (select count(*) from items where recall_source_allowed(source, :sources))
         end as readable,
         size > 0 and items >= 4 * size as sampled,
         max(size / 10, 1) as width
  -- (min and max apart: each is then one step of the table's b-tree, not a scan of it.)
  from (select (select count(*) from items) as items, (select min(id) from items) as first,
               (select max(id) from items) as last, coalesce(:sample, 1000) as size)
),
tens(k) as (select 0 union all select k + 1 from tens where k < 9),
ranges as materialized (
  select l.first + t.k * ((l.last - l.first + 1) / 10) as low,
         l.first + t.k * ((l.last - l.first + 1) / 10) + l.width - 1 as high
  from library as l, tens as t
  where l.sampled
),
sample as materialized (
  select count(*) as n,
         count(*) filter (where :sources is null or recall_source_allowed(i.source, :sources))
           as readable
  from ranges as r cross join items as i
  where i.id >= r.low and i.id <= r.high
),
-- How many items hold each phrase of the query, and each word as it is where the rule
-- weighs words (a query phrase may be a stem; the rule weighs the word): counted in every
-- item; or, in a sampled library, estimated from the sample where a tenth of the sample's
-- items or more hold it, in 5 of its 10 ranges or more (a word that common weighs little,
-- and counting it would read most of the index; a word of few ranges is a cluster, a
-- project's or a period's, which a sample cannot scale). `rows` among all items (bm25's
-- counts), `readable` among the readable ones.
strings as (
  select recall_match(word, :tokenizer) as q from terms
  union
  select '"' || word || '"' from terms, rule where rule.weighs
),
found as materialized (
  select q,
         case when l.sampled then
           (select case when count(distinct r.low) >= 5 then count(*) end
            from ranges as r cross join items_fts as f
            where f.rowid >= r.low and f.rowid <= r.high
              and items_fts match '{title summary questions atoms project} : (' || q || ')')
         end as in_sample,
         case when l.sampled and :sources is not null then
           (select case when count(distinct r.low) >= 5 then count(*) end
            from ranges as r cross join items_fts as f
            where f.rowid >= r.low and f.rowid <= r.high
              and items_fts match '{title summary questions atoms project} : (' || q || ')'
              and exists (select 1 from items as i
                          where i.id = f.rowid and recall_source_allowed(i.source, :sources)))
         end as readable_in_sample
  from strings, library as l
  where q <> '' and (select count(*) from terms) >= 2
),
estimated as materialized (
  select q, readable_in_sample,
         case when in_sample >= 0.1 * s.n and s.n > 0
                then max(1, cast(round(in_sample * 1.0 * l.items / s.n) as integer))
              else (select count(*) from items_fts
                    where items_fts match '{title summary questions atoms project} : (' || q || ')')
         end as rows
  from found, library as l, sample as s
),
counts as materialized (
  select q, rows,
         case when :sources is null then rows
              when readable_in_sample >= 0.1 * s.readable and s.readable > 0
                then max(1, cast(round(readable_in_sample * 1.0 * l.readable / s.readable)
                                 as integer))
              else (select count(*) from items_fts as f
                    where items_fts match '{title summary questions atoms project} : (' || q || ')'
                      and exists (select 1 from items as i
                                  where i.id = f.rowid
                                    and recall_source_allowed(i.source, :sources)))
         end as readable
  from estimated, library as l, sample as s
),
-- Each word's weight, recall_idf of the readable items holding it as it is. A word no
-- item holds weighs nothing here: no item can share it.
weights as materialized (
  select t.word, recall_match(t.word, :tokenizer) as phrase,
         case when c.readable > 0 then recall_idf(c.readable, l.readable) else 0.0 end
           as weight
  from terms as t join counts as c on c.q = '"' || t.word || '"', library as l
),
-- The query's phrases. Under the idf rule, the light ones are those of the lightest
-- words, while the weights of their words together stay below :min_weight: an item that
-- holds no other phrase shares no other word, so it is never kept, and the pool leaves
-- it out (under jezero, any two words keep an item: no phrase is light).
phrases as materialized (
  select phrase, place, rows,
         r.name = 'idf'
           and sum(weight) over (order by weight, rows desc, place) < r.min_weight as light
  from (select x.phrase, x.place, c.rows,
               (select total(w.weight) from weights as w where w.phrase = x.phrase) as weight
        from (select recall_match(word, :tokenizer) as phrase, min(place) as place
              from terms group by 1) as x
        join counts as c on c.q = x.phrase
        where x.phrase <> ''), rule as r
),
plan as materialized (
  select recall_match(t.words, :tokenizer) as full_match,
         -- The query's phrases are these, one for each, in this order.
         coalesce(p.joined, '') = recall_match(t.words, :tokenizer) and p.odd = 0 as aligned,
         p.hits, p.heavy, p.heavy_hits, p.light, p.phrases,
         -- The columns' weights in every score of the pool: title, summary, questions,
         -- atoms, project (only without a project filter), not the neighbours' titles.
         2.0 as w_title, 1.0 as w_summary, 1.5 as w_questions, 1.5 as w_atoms,
         case when :project is null then 0.5 else 0.0 end as w_project
  from (select group_concat(word, ' ') as words, count(*) as n from terms) as t,
       (select group_concat(phrase, ' OR ') as joined,
               total(phrase not like '"%"' or instr(phrase, '" OR "') > 0) as odd,
               '[' || group_concat(rows, ', ') || ']' as hits,
               -- Each phrase's text and rows, for recall_bm25_text.
               json_group_array(json_array(substr(phrase, 2, length(phrase) - 2), rows))
                 as phrases,
               count(*) filter (where light) as light,
               group_concat(phrase, ' OR ') filter (where not light) as heavy,
               -- The heavy phrases come first in the query of the narrowed pool; they
               -- select, they do not score (null), the query's phrases score.
               '[' || coalesce(group_concat('null', ', ') filter (where not light) || ', ', '')
                   || group_concat(rows, ', ') || ']' as heavy_hits
        from (select * from phrases order by place)) as p
  where t.n >= 2
),
-- What the pool matches: the items holding a heavy phrase, where some are light (and the
-- phrases are the query's, one for each word); every match otherwise; nothing where every
-- phrase is light, as then no candidate can be kept (except for --explain, which judges
-- the candidates of every match). Under trigram the items holding a heavy phrase are
-- scored from their text (recall_bm25_text): a trigram of a common word is in most items,
-- and FTS5 would seek in its positions for each item.
way as materialized (
  select p.*,
         p.aligned and p.light > 0 and p.heavy is not null as narrowed,
         p.aligned and p.light > 0 and p.heavy is not null
           and coalesce(:tokenizer, 'trigram') like 'trigram%' as from_text,
         case when p.heavy is null and coalesce(:candidates, 0) <> 1 then null
              when p.aligned and p.light > 0 and p.heavy is not null
                   and coalesce(:tokenizer, 'trigram') like 'trigram%'
                then '{title summary questions atoms project} : (' || p.heavy || ')'
              when p.aligned and p.light > 0 and p.heavy is not null
                then '{title summary questions atoms project} : (' || p.heavy || ') AND '
                     || '{title summary questions atoms project} : (' || p.full_match || ')'
              else '{title summary questions atoms project} : (' || p.full_match || ')'
         end as pool_match,
         -- Every match's project is filtered inside FTS5 too (see search.sql), then
         -- exactly in the pool; the few items of a heavy phrase only there, and every
         -- match too where global items of other projects are to be let through.
         case when p.aligned and p.light > 0 and p.heavy is not null then ''
              when exists (select 1 from items as g
                           where g.global = 1 and (g.project is null or g.project <> :project))
                then ''
              else (select f from project_filter) end as project_part
  from plan as p
),
-- The pool: the 200 best items of the match by FTS5's bm25 of the query of all the
-- words, and the first 8 of them by score. FTS5's bm25() counts the items holding each
-- phrase (a pass over the index for each) before it ranks; here the counts are made
-- once (`counts`), and recall_bm25, given them, gives each item the score bm25() gives
-- it, to the bit (with a sampled count, the score of that count). Where the phrases
-- cannot be known one for each word (`aligned` false), bm25() itself ranks.
pool as (
  select f.rowid as id,
         case when p.from_text
              then recall_bm25_text(items_fts, p.phrases, p.w_title, p.w_summary,
                                    p.w_questions, p.w_atoms, p.w_project, 0.0)
              when p.aligned
              then recall_bm25(items_fts, case when p.narrowed then p.heavy_hits else p.hits end,
                               p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                               p.w_project, 0.0)
              else bm25(items_fts, p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                        p.w_project, 0.0) end as bm25
  from way as p
  join items_fts as f
  where p.pool_match is not null
    -- Not the neighbours' titles (the context column): an item's own words.
    and items_fts match (p.pool_match || p.project_part)
    -- Under a project filter, the global items of other projects match too (see
    -- search.sql).
    and (coalesce(:project, :kinds, :sources) is null
         or exists (
           select 1 from items as i
           where i.id = f.rowid
             and (:project is null or i.project = :project or i.global = 1)
             and (:kinds is null or i.kind in (select value from json_each(:kinds)))
             and recall_source_allowed(i.source, :sources)))
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
  select c.id, c.score, t.word
  from first8 as c
  join items as i on i.id = c.id
  left join terms as t on recall_overlap(t.word, i.title, i.summary) = 1
),
words as materialized (
  select s.word, (select c.readable from counts as c where c.q = '"' || s.word || '"') as items
  from (select distinct word
        from (select word, count(word) over (partition by id) as shares from shared)
        where word is not null and (coalesce(:candidates, 0) = 1 or shares >= 2)) as s
  where (select weighs from rule)
),
judged as materialized (
  select s.id, s.score, count(s.word) as overlap, l.readable as n, r.name as rule,
         r.weighs, r.min_weight, r.min_joint_weight,
         sum(recall_idf(w.items, l.readable)) as weight,
         json_group_array(json_object(
             'word', s.word, 'items', w.items,
             'weight', round(recall_idf(w.items, l.readable), 3)))
           filter (where s.word is not null) as shared,
         -- The items with all of them (prompt words are letters and digits only, so
         -- quoting them is safe).
         '{title summary questions atoms project} : ('
           || group_concat('"' || s.word || '"', ' AND ') || ')' as joint_query
  from shared as s
  left join words as w on w.word = s.word
  cross join library as l
  cross join rule as r
  group by s.id
),
-- How many items hold all the shared words, for the candidates with two or more whose
-- weights add up to enough (unless all are explained): counted for the first candidate
-- of each set of words, and given to the others. (Each CTE here is read once: SQLite
-- expands a CTE again for each reference, with all it reads.)
together as materialized (
  select c.*,
         case when c.counted and c.first_of_set then
           (select count(*) from items_fts as f
            where items_fts match c.joint_query
              and (:sources is null
                   or exists (select 1 from items as i
                              where i.id = f.rowid
                                and recall_source_allowed(i.source, :sources))))
         end as own_count
  from (select judged.*, counted,
               row_number() over (partition by joint_query, counted order by id) = 1
                 as first_of_set
        from (select judged.*,
                     overlap >= 2 and weighs
                       and (coalesce(:candidates, 0) = 1 or weight >= min_weight) as counted
              from judged) as judged) as c
),
verdicts as (
  select t.*, recall_idf(t.joint_items, t.n) as joint_weight, i.occurred_at,
         case when t.rule = 'jezero'
                then case when recall_related(:prompt, i.title, i.summary) = 1
                          then 'kept' else 'few_words' end
              when t.overlap < 2 then 'few_words'
              when t.weight < t.min_weight then 'low_weight'
              when recall_idf(t.joint_items, t.n) < t.min_joint_weight then 'common_together'
              else 'kept' end as verdict
  from (select together.*,
               case when counted
                    then max(own_count) over (partition by joint_query, counted) end
                 as joint_items
        from together) as t
  join items as i on i.id = t.id
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
