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
  select key as place, value as word from json_each(recall_prompt_terms(:prompt))
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
-- The pool: the 200 best items by FTS5's bm25 of the query of all the words, and the
-- first 8 of them by score. FTS5's bm25() counts, before it ranks, the items holding
-- each phrase (a pass over the index for each) and scores every item matched; here the
-- counts are made once (`counted`), and recall_bm25, given them, gives each item the
-- score bm25() gives it, to the bit. The most frequent words ("common", `phrases`)
-- match most items and add little to a score: `quick` scores only the items holding
-- another word, and stands for the pool where it provably gives the same first 8
-- (`way`); otherwise every match is scored. Where the phrases cannot be known one for
-- each word (`aligned` false), bm25() itself ranks. Under the idf rule, words that
-- together weigh too little to keep any candidate make no pool of every match (`skip`).
-- docs/queries.md#related says why each step gives the same answer.
counted as materialized (
  select phrase, place,
         (select count(*) from items_fts
          where items_fts match '{title summary questions atoms project} : (' || phrase || ')')
           as rows
  from (select recall_match(word, :tokenizer) as phrase, min(place) as place
        from terms group by 1)
  where phrase <> '' and (select count(*) from terms) >= 2
),
phrases as materialized (
  select phrase, place, rows, items,
         -- Common: the most frequent phrases, while what they can add to a score
         -- together stays below 3, or below 0.55 of what can be added by the phrase
         -- that, counting from the rarest, brings the items holding them to 8: the 8th
         -- candidate, as a rule, holds such a phrase and scores more than that.
         sum(bound) over (order by rows desc, place)
           < max(3.0, 0.55 * coalesce(max(bound) filter (where held >= 8) over (), 0.0))
           as common
  from (select phrase, place, rows, n.items, recall_bm25_bound(rows, n.items) as bound,
               sum(rows) over (order by rows, place) as held
        from counted, (select count(*) as items from items) as n)
),
plan as materialized (
  select recall_match(t.words, :tokenizer) as full_match,
         -- The query's phrases are these, one for each, in this order.
         coalesce(p.joined, '') = recall_match(t.words, :tokenizer) and p.odd = 0 as aligned,
         p.hits, p.rare, p.quick_hits, p.common, p.quick_pays, p.bound,
         -- The columns' weights in every score of the pool: title, summary, questions,
         -- atoms, project (only without a project filter), not the neighbours' titles.
         2.0 as w_title, 1.0 as w_summary, 1.5 as w_questions, 1.5 as w_atoms,
         case when :project is null then 0.5 else 0.0 end as w_project
  from (select group_concat(word, ' ') as words, count(*) as n from terms) as t,
       (select group_concat(phrase, ' OR ') as joined,
               total(phrase not like '"%"' or instr(phrase, '" OR "') > 0) as odd,
               '[' || group_concat(rows, ', ') || ']' as hits,
               group_concat(phrase, ' OR ') filter (where not common) as rare,
               '[' || coalesce(group_concat('null', ', ') filter (where not common) || ', ', '')
                   || group_concat(rows, ', ') || ']' as quick_hits,
               count(*) filter (where common) as common,
               -- The quick pool pays when the other words are held by fewer items than
               -- the most common one: it scores those, the pool of every match all.
               total(rows) filter (where not common) < max(rows) filter (where common)
                 as quick_pays,
               -- 1% above the sum: the row count is the items', FTS5's may differ a little.
               1.01 * total(recall_bm25_bound(rows, items)) filter (where common) as bound
        from (select * from phrases order by place)) as p
  where t.n >= 2
),
quick as materialized (
  select f.rowid as id,
         recall_bm25(items_fts, p.quick_hits,
                     p.w_title, p.w_summary, p.w_questions, p.w_atoms, p.w_project, 0.0)
           as bm25
  from plan as p
  join items_fts as f
  where p.aligned and p.common > 0 and p.rare is not null and p.quick_pays
    and items_fts match (
          '{title summary questions atoms project} : (' || p.rare || ') AND '
          || '{title summary questions atoms project} : (' || p.full_match || ')'
          || (select f from project_filter))
    and (coalesce(:project, :kinds, :sources) is null
         or exists (
           select 1 from items as i
           where i.id = f.rowid
             and (:project is null or i.project = :project)
             and (:kinds is null or i.kind in (select value from json_each(:kinds)))
             and recall_source_allowed(i.source, :sources)))
  order by bm25
  limit 200
),
-- The plan, and whether the quick pool gives the same candidates: its 8th candidate
-- scores better than an item holding only common words can after recency (whose factor
-- is at most 1), so that none is among the first 8 (the score as in first8); or its
-- 200th item scores better than such an item can, so that none is in the pool.
way as materialized (
  select h.*,
         -- The idf rule keeps nothing when all the words together weigh too little (the
         -- weights as the rule's): then the pool of every match is not made. Not for
         -- --explain, nor where counts need the sources; not counted where the quick
         -- pool holds.
         case when h.holds then 0 else
         coalesce((select :sources is null
                          and (select name from rule) = 'idf' and coalesce(:candidates, 0) <> 1
                          and total(recall_idf(
                                case when c.phrase = '"' || w.word || '"' then c.rows
                                     else (select count(*) from items_fts
                                           where items_fts match
                                             '{title summary questions atoms project} : "'
                                             || w.word || '"') end,
                                (select count(*) from items)))
                              < (select min_weight from rule)
                   from terms as w
                   left join counted as c on c.phrase = recall_match(w.word, :tokenizer)),
                  0) end as skip
  from (
    select p.*,
           coalesce(q.eighth > p.bound or (q.n = 200 and q.worst < -p.bound), 0) as holds
    from plan as p,
         (select count(*) as n, max(bm25) as worst,
                 max(score) filter (where place = 8) as eighth
          from (select bm25, score, row_number() over (order by score desc) as place
                from (select q.bm25,
                             recall_score(q.bm25, i.occurred_at, :now, :half_life,
                                          coalesce(:weight, 0.1)) as score
                      from quick as q join items as i on i.id = q.id))) as q) as h
),
pool as (
  select id, bm25 from (
    select id, bm25 from quick where (select holds from way)
    union all
    select f.rowid as id,
           case when p.aligned
                then recall_bm25(items_fts, p.hits, p.w_title, p.w_summary, p.w_questions,
                                 p.w_atoms, p.w_project, 0.0)
                else bm25(items_fts, p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                          p.w_project, 0.0) end as bm25
    from way as p
    join items_fts as f
    where not p.holds and not p.skip
      and items_fts match (
            -- Not the neighbours' titles (the context column): an item's own words.
            '{title summary questions atoms project} : (' || p.full_match || ')'
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
    -- search.sql): each looked up, which costs no count with recall_bm25.
    select f.rowid,
           case when p.aligned
                then recall_bm25(items_fts, p.hits, p.w_title, p.w_summary, p.w_questions,
                                 p.w_atoms, p.w_project, 0.0)
                else bm25(items_fts, p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                          p.w_project, 0.0) end
    from plan as p
    cross join items as g
    cross join items_fts as f on f.rowid = g.id
    where :project is not null and g.global = 1
      and (g.project is null or g.project <> :project)
      and items_fts match ('{title summary questions atoms project} : (' || p.full_match || ')')
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
  select c.id, c.score, t.word
  from first8 as c
  join items as i on i.id = c.id
  left join terms as t on recall_overlap(t.word, i.title, i.summary) = 1
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
         -- The pool's count where it is this one (the word as it is, all items readable).
         coalesce(
         (select p.rows from phrases as p
          where :sources is null and p.phrase = '"' || s.word || '"'),
         (select count(*) from items_fts as f
          where items_fts match '{title summary questions atoms project} : "' || s.word || '"'
            and (:sources is null
                 or exists (select 1 from items as i
                            where i.id = f.rowid
                              and recall_source_allowed(i.source, :sources))))) as items
  from (select distinct word
        from (select word, count(word) over (partition by id) as shares from shared)
        where word is not null and (coalesce(:candidates, 0) = 1 or shares >= 2)) as s
  where (select weighs from rule)
),
judged as materialized (
  select s.id, s.score, count(s.word) as overlap,
         sum(recall_idf(w.items, (select n from library))) as weight,
         json_group_array(json_object(
             'word', s.word, 'items', w.items,
             'weight', round(recall_idf(w.items, (select n from library)), 3)))
           filter (where s.word is not null) as shared,
         -- The items with all of them (prompt words are letters and digits only, so
         -- quoting them is safe).
         '{title summary questions atoms project} : ('
           || group_concat('"' || s.word || '"', ' AND ') || ')' as joint_query
  from shared as s
  left join words as w on w.word = s.word
  group by s.id
),
-- How many items hold all the shared words, for the candidates with two or more whose
-- weights add up to enough (unless all are explained).
together as materialized (
  select judged.*,
         case when judged.overlap >= 2 and (select weighs from rule)
                   and (coalesce(:candidates, 0) = 1
                        or judged.weight >= (select min_weight from rule))
              then (select count(*) from items_fts as f
                    where items_fts match judged.joint_query
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
