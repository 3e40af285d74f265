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
         (coalesce(:rule, 'idf') <> 'jezero' or coalesce(:candidates, 0) = 1) as weighs,
         -- Whether the tokenizer folds text as the prompt's words are folded, and is a
         -- trigram tokenizer (see `counts` and `way`).
         recall_folds(coalesce(:tokenizer, 'trigram')) as folds,
         coalesce(:tokenizer, 'trigram') like 'trigram%' as trigram,
         -- Under trigram, the items of the heavy phrases scored from their text, up to
         -- this many (see `way`).
         1000 as from_text_items,
         -- The pool: the best items by bm25 (see `pooled`); where the items are ordered
         -- by what each can score at most, as many are scored first.
         200 as pool_size,
         50 as scored_first
),
-- The project's column filter, where FTS5 finds the project by it (see search.sql).
project_filter as materialized (
  select case when f = '' then ''
              when exists (select 1 from items_fts where items_fts match substr(f, 6)) then f
              else '' end as f
  from (select recall_column_filter('project', :project, :tokenizer) as f)
),
-- The items (FTS5's bm25 counts them all), the readable ones (the rule's N), and the
-- sample: where the library holds 20 times as many items as :sample or more (under
-- trigram, twice as many), ten ranges of ids spread evenly over it, :sample ids in all,
-- read by FTS5 as a seek in each segment. What the sample estimates (see `found`): from
-- 20 times :sample items, a string held by 2% of the sample, in 5 of its ranges; below,
-- one held by half of it, in every range.
library as materialized (
  select items, first, last,
         case when :sources is null then items
              else (select count(*) from items where recall_source_allowed(source, :sources))
         end as readable,
         size > 0 and (items >= 20 * size or trigram and items >= 2 * size) as sampled,
         size > 0 and items >= 20 * size as lists,
         case when items >= 20 * size then 0.02 else 0.5 end as share,
         case when items >= 20 * size then 5 else 10 end as spread,
         max(size / 10, 1) as width,
         -- The first items holding a string, that tell whether to look for it in the
         -- sample (see `heads`).
         5 as head,
         trigram,
         -- Under trigram, whether the runs of every item's text are made (see `listed`),
         -- and the items a string's runs hold below which it is listed from them first
         -- (see `heads`).
         trigram and not exists (select 1 from items_runs_pending) as by_runs,
         1000 as few_items,
         -- An item's own columns, as a mask of recall_fts5_columns: title, summary,
         -- questions, atoms, project (0 to 4), not the neighbours' titles (context, 5).
         31 as own
  -- The items as FTS5 counts them (bm25's N), from its totals: count(*) would read every
  -- item. (Min and max apart: each is then one step of the table's b-tree, not a scan.)
  from (select coalesce((select recall_fts5_rows(items_fts) from items_fts limit 1), 0)
                 as items,
               (select min(id) from items) as first, (select max(id) from items) as last,
               coalesce(:sample, 1000) as size, r.trigram
        from rule as r)
),
tens(k) as (select 0 union all select k + 1 from tens where k < 9),
ranges as materialized (
  select l.first + t.k * ((l.last - l.first + 1) / 10) as low,
         l.first + t.k * ((l.last - l.first + 1) / 10) + l.width - 1 as high, l.share
  from library as l, tens as t
  where l.sampled
),
sample as materialized (
  select n, readable,
         -- The items of the sample a string is estimated from (see `library`).
         max(1, share * n) as least, max(1, share * readable) as least_readable
  from (select count(*) as n, max(r.share) as share,
               -- The readable ones, under :sources, from the items' sources.
               case when :sources is null then count(*)
                    else (select count(*) from ranges as r2 cross join items as i
                          where i.id >= r2.low and i.id <= r2.high
                            and recall_source_allowed(i.source, :sources))
               end as readable
        -- The items, from FTS5's record of each one's size: an item's own row may be
        -- long (its transcript), and those of a thousand are read for nothing else.
        from ranges as r cross join items_fts_docsize as d
        -- (Nothing is counted for a prompt of fewer than 2 words.)
        where d.id >= r.low and d.id <= r.high and (select count(*) from terms) >= 2)
),
-- Under trigram, in a library of 2 to 20 times the sample, the own text of 10 items at
-- ids spread evenly over it, folded as the prompt's words are: a string in half of them
-- or more is looked for in the sample (see `heads`): a word held by 70% of the items 95
-- times in 100, one held by a quarter 8 times in 100. (Reading 10 items' text costs less
-- than asking FTS5 for each word; a word held by fewer is counted, exactly.)
spread as materialized (
  select recall_fold(i.title || ' ' || i.summary || ' ' || i.questions || ' ' || i.atoms
                     || ' ' || coalesce(i.project, '')) as text
  from library as l, tens as t
  cross join items as i on i.id = l.first + t.k * ((l.last - l.first + 1) / 10)
  where l.sampled and not l.lists and l.trigram
),
-- What is counted: each phrase of the query (`phrase` itself, at its first word's place)
-- and, where the rule weighs words, each word as it is (`phrase`: its word's phrase). A
-- word that is another word's phrase, and not its own (`implement`, the phrase of
-- `implementation`, is `imple`), is two strings: the phrase, at its words' place, and the
-- word, which weighs for its own phrase.
strings as (
  select q, max(is_phrase) as is_phrase, max(is_word) as is_word, phrase, min(place) as place
  from (select recall_match(word, :tokenizer) as q, 1 as is_phrase, 0 as is_word,
               recall_match(word, :tokenizer) as phrase, place
        from terms
        union all
        select '"' || word || '"', 0, 1, recall_match(word, :tokenizer), place
        from terms, rule
        where rule.weighs)
  group by q, phrase
),
-- How many items hold each phrase of the query, and each word as it is where the rule
-- weighs words (a query phrase may be a stem; the rule weighs the word): counted in every
-- item; or, in a sampled library, estimated from the sample where 2% of the sample's
-- items or more hold it, in 5 of its 10 ranges or more (a word that common weighs
-- little, and the weight of one spread evenly, from 20 items of the sample or more, is
-- within about 0.02 of its count's; under trigram, counting it seeks through most of the
-- index's positions of its trigrams; a word of few ranges is a cluster, a project's or a
-- period's, which a sample cannot scale). `rows` among all items (bm25's
-- counts), `readable` among the readable ones. Each query of a string has no column
-- filter: the rows holding it among an item's own columns are kept (recall_fts5_columns).
-- FTS5 filters the positions of every entry it steps through by a filter of several
-- columns, a quarter to a half of such a query's time under trigram, where the function
-- reads the positions of the rows found (only a word in nearly every item costs more so,
-- and such a word is estimated where the library is sampled).
-- Where the runs of every item's text are made (see `listed`), in a library of 20
-- times the sample or more, each string whose runs hold fewer than `few_items` (1,000)
-- items, counted up to that from the runs' index, listed from them (`few`; see `heads`).
-- Counted before it is listed: the list of a common string costs more than its first
-- items. (Materialized: a subquery in a FROM clause is merged into the query of its
-- rows, and each reference to the list would make it again.)
few_lists as materialized (
  select s.*,
         case when l.by_runs and l.lists
               and (select count(*)
                    from (select 1 from items_run_items as x
                          where x.run in (select rowid from items_runs_fts
                                          where items_runs_fts match s.q)
                          limit (select few_items from library))) < l.few_items then
           (select json_group_array(item_id)
            from (select distinct x.item_id from items_run_items as x
                  where x.run in (select rowid from items_runs_fts
                                  where items_runs_fts match s.q)
                  order by x.item_id))
         end as few
  from strings as s, library as l
  where s.q <> '' and (select count(*) from terms) >= 2
),
-- Under trigram, in a library of 20 times the sample or more, the first items holding
-- each string, up to `head` (5) of them. Where fewer hold it, these are all its items:
-- it is listed (see `listed`), and not looked for in the sample. Where they are spread
-- over more than twice the ids its share of the sample would take (500 at 2%), it is
-- listed too rather than estimated: held by fewer, or not among the first items. (FTS5
-- finds the first item of a range by looking from the first id on: for a word whose
-- trigrams most items hold, and which few hold, a sample of ten ranges costs up to ten
-- times listing it.) Below 20 times the sample, a string is looked for in the sample
-- where it is in half of 10 items' text or more (see `spread`). Under other
-- tokenizers a word is a token, found by a seek, and every string is looked for in it.
-- A string listed from its runs (`few_lists`) has the list's first items: FTS5 would
-- find the first items of a word few items hold by stepping through the positions of
-- its trigrams to the end of the index (of a new word that no item holds, all of them),
-- the runs' index finds none or few runs at once. A string of more is left to FTS5's
-- first items, which it reaches soon.
heads as materialized (
  select s.*,
         case when l.lists and l.trigram and s.is_phrase then
           case when s.few is not null then s.few_first
           else
             (select json_group_array(rowid)
              from (select rowid from items_fts
                    where items_fts match s.q and recall_fts5_columns(items_fts) & l.own <> 0
                    limit (select head from library)))
           end
         end as phrase_ids,
         l.trigram,
         case when l.sampled and not l.lists then
           (select count(*) from spread
            where instr(text, substr(s.q, 2, length(s.q) - 2)) > 0) >= 5
         end as seen,
         l.sampled, l.lists, l.spread, l.own, l.head, l.first, l.by_runs,
         cast(2 * l.head / l.share as integer) as reach,
         -- The library's and the sample's figures, carried on: SQLite expands `library`
         -- and `sample` again for each reference, in every reference to what follows.
         l.items, l.readable as n, m.n as sample_n, m.readable as sample_readable, m.least,
         m.least_readable
  from (select f.*,
               -- Its first items, where it is listed here.
               case when f.few is not null then
                 (select json_group_array(value)
                  from (select value from json_each(f.few) limit (select head from library)))
               end as few_first
        from few_lists as f) as s,
       library as l, sample as m
),
-- The words that are not phrases of the query (a word whose phrase is its stem), after
-- the phrases: under trigram, the items holding a word all hold its stem, and a word
-- whose stem no item holds is looked for no further.
firsts as materialized (
  select h.*,
         case when h.is_phrase then h.phrase_ids
              when h.stem_ids = 0 then '[]'
              when h.lists and h.trigram and h.few is not null then h.few_first
              when h.lists and h.trigram then
                (select json_group_array(rowid)
                 from (select rowid from items_fts
                       where items_fts match h.q
                         and recall_fts5_columns(items_fts) & h.own <> 0
                       limit (select head from library)))
         end as first_ids
  from (select heads.*,
               max(json_array_length(phrase_ids)) over (partition by phrase) as stem_ids
        from heads) as h
),
found as materialized (
  select h.*,
         case when h.sampled and h.dense then
           (select case when count(distinct r.low) >= h.spread then count(*) end
            from ranges as r cross join items_fts as f
            where f.rowid >= r.low and f.rowid <= r.high
              and items_fts match h.q and recall_fts5_columns(items_fts) & h.own <> 0)
         end as in_sample,
         case when h.sampled and h.dense and :sources is not null then
           (select case when count(distinct r.low) >= h.spread then count(*) end
            from ranges as r cross join items_fts as f
            where f.rowid >= r.low and f.rowid <= r.high
              and items_fts match h.q and recall_fts5_columns(items_fts) & h.own <> 0
              and exists (select 1 from items as i
                          where i.id = f.rowid and recall_source_allowed(i.source, :sources)))
         end as readable_in_sample
  from (select firsts.*,
               coalesce(seen,
                        json_array_length(first_ids) >= head
                          and first_ids ->> '$[#-1]' < first + reach,
                        1) as dense
        from firsts) as h
),
-- Under trigram, and in a library of 20 times the sample or more, the items holding each
-- string the sample does not estimate are listed (their ids), and counted from the list:
-- the pool and the joint counts read the lists instead of querying the index again for
-- the same words (under trigram, each query of a word seeks through the positions of
-- trigrams most items hold; the items of a project's heavy words are then often few
-- enough to be scored from their text). Elsewhere such a string is counted: a word is a
-- token, whose list FTS5 reads at once, and building a list costs more than it saves.
-- Under trigram, where the runs of every item's text are made (migration 0009), a
-- string's items are those of the runs the runs' own index finds it in: wherever the
-- trigram tokenizer finds a word in an item's own columns, the word lies inside one of
-- their runs (recall_core::runs), so the list is the same, without walking the
-- positions of the string's trigrams through the items' index.
listed as materialized (
  select f.*,
         case when f.few is not null and not coalesce(f.in_sample >= f.least, 0) then f.few
              -- (Fewer than `head`: its first items are all of them.)
              when json_array_length(f.first_ids) < f.head then f.first_ids
              when f.by_runs and not coalesce(f.in_sample >= f.least, 0) then
           -- The items of the runs holding it (see above).
           (select json_group_array(item_id)
            from (select distinct x.item_id from items_run_items as x
                  where x.run in (select rowid from items_runs_fts
                                  where items_runs_fts match f.q)
                  order by x.item_id))
              when (f.lists or f.trigram) and not coalesce(f.in_sample >= f.least, 0) then
           -- (Its first items, and those after them: FTS5 seeks to the next.)
           (select json_group_array(id)
            from (select value as id from json_each(f.first_ids)
                  union all
                  select rowid from items_fts
                  where items_fts match f.q and recall_fts5_columns(items_fts) & f.own <> 0
                    and rowid >= coalesce(f.first_ids ->> '$[#-1]' + 1, f.first)))
         end as ids
  from found as f
),
estimated as materialized (
  select f.*,
         case when f.in_sample >= f.least
                then max(1, cast(round(f.in_sample * 1.0 * f.items / f.sample_n) as integer))
              when f.ids is not null then json_array_length(f.ids)
              else (select count(*) from items_fts
                    where items_fts match f.q and recall_fts5_columns(items_fts) & f.own <> 0)
         end as rows
  from listed as f
),
-- A word's weight is recall_idf of the readable items holding it as it is. Where the
-- tokenizer folds text as the rule's words are folded (recall_folds), a word no item
-- holds is in no item's text, and weighs nothing here; otherwise an item may share it
-- (`café` is no `cafe` to plain trigram), and it weighs 1, as in the rule. `weight` is
-- a phrase's: the weights of its words.
counts as materialized (
  select c.*,
         sum(case when c.is_word = 0 then 0.0
                  when c.readable > 0 then recall_idf(c.readable, c.n)
                  when c.folds then 0.0
                  else 1.0 end) over (partition by c.phrase) as weight
  from (select e.q, e.is_phrase, e.is_word, e.phrase, e.place, e.rows, e.ids,
               e.n, e.items, r.folds,
               case when :sources is null then e.rows
                    when e.readable_in_sample >= e.least_readable
                      then max(1, cast(round(e.readable_in_sample * 1.0 * e.n
                                             / e.sample_readable) as integer))
                    when e.ids is not null
                      then (select count(*) from json_each(e.ids) as j
                            join items as i on i.id = j.value
                            where recall_source_allowed(i.source, :sources))
                    else (select count(*) from items_fts as f
                          where items_fts match e.q
                            and recall_fts5_columns(items_fts) & e.own <> 0
                            and exists (select 1 from items as i
                                        where i.id = f.rowid
                                          and recall_source_allowed(i.source, :sources)))
               end as readable
        from estimated as e, rule as r) as c
),
-- The query's phrases. Under the idf rule, the light ones are those of the lightest
-- words, while the weights of their words together stay below :min_weight: an item that
-- holds no other phrase shares no other word, so it is never kept, and the pool leaves
-- it out (under jezero, any two words keep an item: no phrase is light). That holds where
-- the tokenizer folds text as the words are folded: otherwise an item may share a word
-- FTS5 does not find in it, and only a prompt whose words are all light is left out.
phrases as materialized (
  select phrase, place, rows, items, ids,
         r.name = 'idf'
           and sum(weight) over (order by weight, rows desc, place) < r.min_weight as light,
         -- Common (for the quick pool of every match, where no word is set aside): the
         -- most frequent phrases, while what they can add to a score together stays
         -- below 3, or below 0.55 of what can be added by the phrase that, counting from
         -- the rarest, brings the items holding them to 8: the 8th candidate, as a rule,
         -- holds such a phrase and scores more than that.
         sum(bound) over (order by rows desc, place)
           < max(3.0, 0.55 * coalesce(max(bound) filter (where held >= 8) over (), 0.0))
           as common
  from (select c.q as phrase, c.place, c.rows, c.items, c.ids, c.weight,
               recall_bm25_bound(c.rows, c.items) as bound,
               sum(c.rows) over (order by c.rows, c.place) as held
        from counts as c
        where c.is_phrase), rule as r
),
plan as materialized (
  select recall_match(t.words, :tokenizer) as full_match,
         -- The query's phrases are these, one for each, in this order.
         coalesce(p.joined, '') = recall_match(t.words, :tokenizer) and p.odd = 0 as aligned,
         p.hits, p.heavy, p.heavy_rows, p.heavy_hits, p.light, p.phrases,
         p.rare, p.quick_hits, p.common, p.quick_pays, p.bound, p.heavy_listed,
         p.items, p.phrase_lists,
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
               -- Whether the items of every heavy phrase are listed (see `listed`).
               min(ids is not null) filter (where not light) as heavy_listed,
               -- Each phrase's rows, their ids where listed, and whether it is heavy,
               -- for recall_bm25_bounds (see `bounded`; rows at most the library's, which
               -- an index out of step with its items could pass); and the library's rows.
               '[' || group_concat('[' || min(rows, items) || ',' || coalesce(ids, 'null')
                                   || ',' || (not light) || ']', ',') || ']' as phrase_lists,
               max(items) as items,
               total(rows) filter (where not light) as heavy_rows,
               group_concat(phrase, ' OR ') filter (where not common) as rare,
               '[' || coalesce(group_concat('null', ', ') filter (where not common) || ', ', '')
                   || group_concat(rows, ', ') || ']' as quick_hits,
               count(*) filter (where common) as common,
               -- The quick pool pays when the other words are held by fewer items than
               -- the most common one: it scores those, the pool of every match all.
               total(rows) filter (where not common) < max(rows) filter (where common)
                 as quick_pays,
               -- 1% above the sum: the row count is the items', FTS5's may differ a little.
               1.01 * total(recall_bm25_bound(rows, items)) filter (where common) as bound,
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
-- the candidates of every match). Under trigram, up to a thousand items holding a heavy
-- phrase are scored from their text (recall_bm25_text): a trigram of a common word is in
-- most items, and FTS5 would seek in its positions for each item; for more, the seeks
-- are close enough to cost less than reading the texts (the scores are the same).
way as materialized (
  select w.*,
         case when w.heavy is null and coalesce(:candidates, 0) <> 1 then null
              when w.from_text
                then '{title summary questions atoms project} : (' || w.heavy || ')'
              when w.narrowed
                then '{title summary questions atoms project} : (' || w.heavy || ') AND '
                     || '{title summary questions atoms project} : (' || w.full_match || ')'
              else '{title summary questions atoms project} : (' || w.full_match || ')'
         end as pool_match,
         -- Every match's project is filtered inside FTS5 too (see search.sql), then
         -- exactly in the pool; the few items of a heavy phrase only there, and every
         -- match too where global items of other projects are to be let through.
         case when w.narrowed then ''
              when exists (select 1 from items as g
                           where g.global = 1 and (g.project is null or g.project <> :project))
                then ''
              else (select f from project_filter) end as project_part
  from (select n.*, n.narrowed and n.heavy_rows < n.from_text_items and n.trigram
                      as from_text,
               -- Where the items of every heavy phrase are listed (see `listed`), those
               -- the pool may hold (of the project or global, of the kinds, of the
               -- sources), by what each can score at most (from the phrases' lists), as
               -- [id, bound], highest first: the pool is read from them (see `pooled`).
               -- (Made here, once: each reference to this column in this query would run
               -- it again.) Each is looked up among the items; or, where the heavy
               -- phrases' items are more than 8 times the pool, and only a project is
               -- asked for, the project's items and the global ones are read from their
               -- indexes instead (looking up each of thousands of items reads a page of
               -- the table for each).
               case when n.narrowed and n.trigram and n.heavy_listed then
                 case when coalesce(:project, :kinds, :sources) is null then
                   recall_bm25_bounds(n.items, n.phrase_lists)
                      when n.heavy_rows > 8 * n.pool_size
                           and :kinds is null and :sources is null then
                   recall_bm25_bounds(
                     n.items, n.phrase_lists,
                     (select json_group_array(id)
                      from (select id from items where project = :project
                            union all
                            select id from items
                            where global = 1 and project is not :project)))
                 else
                   (select json_group_array(json(j.value))
                    from json_each(recall_bm25_bounds(n.items, n.phrase_lists)) as j
                    where exists (
                      select 1 from items as i
                      where i.id = j.value ->> 0
                        and (:project is null or i.project = :project or i.global = 1)
                        and (:kinds is null or i.kind in (select value from json_each(:kinds)))
                        and recall_source_allowed(i.source, :sources)))
                 end
               end as bounded
        from (select p.*, r.trigram, r.from_text_items, r.pool_size, r.scored_first,
                     p.aligned and p.light > 0 and p.heavy is not null and r.folds as narrowed
              from plan as p, rule as r) as n) as w
),
-- The pool: the 200 best items of the match by FTS5's bm25 of the query of all the
-- words, and the first 8 of them by score. FTS5's bm25() counts the items holding each
-- phrase (a pass over the index for each) before it ranks; here the counts are made
-- once (`counts`), and recall_bm25, given them, gives each item the score bm25() gives
-- it, to the bit (with a sampled count, the score of that count). Where the phrases
-- cannot be known one for each word (`aligned` false), bm25() itself ranks.
--
-- Fewer items are scored where that provably gives the same first 8:
-- - where every match is the pool, the quick pool: only the items holding a phrase that
--   is not common; what an item of common phrases alone can score is below their bound;
-- - where some phrases are light and the items of every heavy one are listed, the
--   scored_first (50) items that can score the most (`way.bounded`), from their text,
--   then the pool_size (200); what any other can score is below the next one's bound
--   (none: they are every item).
-- Either stands for the pool where its 8th candidate scores better than what an item
-- left out can, even after recency (whose factor is at most 1), so that none is among the
-- first 8 (the score as in first8): an item of a better bm25 than one of those 8 was
-- scored, so each of them is in the pool; or where its 200th item does, so that none is
-- in the pool. (Of 1,769 first prompts of real sessions whose pool was read from the
-- bounds, the first 50 stood for 1,655.) Otherwise, where the heavy phrases' listed items
-- are fewer than from_text_items, every one of them, scored from their text the same way
-- (FTS5 would seek in the positions of every phrase for each item its query finds); else
-- the items FTS5 finds.
--
-- Made in one row, from one reference to `way` (SQLite expands a CTE anew for each
-- reference, with all it reads, and this one reads the most: each reference, a tenth of
-- the time to prepare this file): the items and their scores as JSON, each score as the
-- text of its 17 digits, which SQLite reads back to the same number (JSON's own numbers
-- keep 15 of them).
pooled as materialized (
  select case when p.pool_match is null then null
              else coalesce(
  (select rows from (select (
  select case when max(holds) = 1
               then json_group_array(json_array(id, printf('%!.17g', bm25))) end
   from (select id, bm25,
                coalesce(bound is null or eighth > bound
                           or (n = p.pool_size and worst < -bound), 0)
                  as holds
         from (select s.id, s.bm25, s.bound, count(*) over () as n,
                      max(s.bm25) over () as worst,
                      nth_value(recall_score(s.bm25, i.occurred_at, :now, :half_life,
                                             coalesce(:weight, 0.1)), 8)
                        over (order by recall_score(s.bm25, i.occurred_at, :now, :half_life,
                                                    coalesce(:weight, 0.1)) desc
                              rows between unbounded preceding and unbounded following)
                        as eighth
               from (select f.rowid as id,
                            recall_bm25(items_fts, p.quick_hits, p.w_title, p.w_summary,
                                        p.w_questions, p.w_atoms, p.w_project, 0.0) as bm25,
                            p.bound
                     from items_fts as f
                     where not p.narrowed and p.aligned and p.common > 0
                       and p.rare is not null and p.quick_pays
                       and items_fts match (
                             '{title summary questions atoms project} : (' || p.rare
                             || ') AND ' || p.pool_match || p.project_part)
                       and (coalesce(:project, :kinds, :sources) is null
                            or exists (
                              select 1 from items as i
                              where i.id = f.rowid
                                and (:project is null or i.project = :project
                                     or i.global = 1)
                                and (:kinds is null
                                     or i.kind in (select value from json_each(:kinds)))
                                and recall_source_allowed(i.source, :sources)))
                     union all
                     -- (The window reads the next one's bound from the list once.)
                     select f.rowid,
                            recall_bm25_text(items_fts, p.phrases, p.w_title, p.w_summary,
                                             p.w_questions, p.w_atoms, p.w_project, 0.0),
                            b.bound
                     from (select j.key, j.value ->> 0 as id,
                                  1.01 * max(j.value ->> 1)
                                           filter (where j.key = st.k) over ()
                                    as bound
                           from json_each(p.bounded) as j) as b
                     join items_fts as f on f.rowid = b.id
                     where b.key < st.k
                     order by bm25
                     limit (select pool_size from rule)) as s
               cross join items as i on i.id = s.id))) as rows
    -- (Each step in turn, until one stands: a subquery with a limit is not merged into
    -- the query of its rows, which would make each step's rows twice.)
    -- The last, every item where there are fewer than from_text_items: no bound is
    -- left, and they stand.
    from (select p.scored_first as k
          union all
          select p.pool_size where json_array_length(p.bounded) > p.scored_first
          union all
          select json_array_length(p.bounded)
          where json_array_length(p.bounded) > p.pool_size
            and json_array_length(p.bounded) < p.from_text_items) as st
    limit 3)
   where rows is not null limit 1),
  (select json_group_array(json_array(id, printf('%!.17g', bm25)))
   from (select f.rowid as id,
                case when p.from_text
                     then recall_bm25_text(items_fts, p.phrases, p.w_title, p.w_summary,
                                           p.w_questions, p.w_atoms, p.w_project, 0.0)
                     when p.aligned
                     then recall_bm25(items_fts,
                                      case when p.narrowed then p.heavy_hits else p.hits end,
                                      p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                                      p.w_project, 0.0)
                     else bm25(items_fts, p.w_title, p.w_summary, p.w_questions, p.w_atoms,
                               p.w_project, 0.0)
                end as bm25
         from items_fts as f
         -- Not the neighbours' titles (the context column): an item's own words.
         where items_fts match (p.pool_match || p.project_part)
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
         limit (select pool_size from rule))))
         end as rows
  from way as p
),
pool as (
  select j.value ->> 0 as id, cast(j.value ->> 1 as real) as bm25
  from pooled as c, json_each(c.rows) as j
),
first8 as (
  select pool.id,
         recall_score(pool.bm25, i.occurred_at, :now, :half_life, coalesce(:weight, 0.1))
           as score
  -- (The pool first: SQLite would otherwise read every item's time in its index, and
  -- look each up in the pool.)
  from pool
  cross join items as i on i.id = pool.id
  order by score desc, i.occurred_at desc, i.id desc
  limit 8
),
-- (Materialized: each is read more than once, and must not be computed again.)
shared as materialized (
  select c.id, c.score, t.value as word
  from first8 as c
  join items as i on i.id = c.id
  left join json_each(recall_overlap_terms(:prompt, i.title, i.summary)) as t
),
judged as materialized (
  select s.id, s.score, count(s.word) as overlap, l.readable as n, r.name as rule,
         r.weighs, r.min_weight, r.min_joint_weight,
         sum(recall_idf(w.readable, l.readable)) as weight,
         json_group_array(json_object(
             'word', s.word, 'items', w.readable,
             'weight', round(recall_idf(w.readable, l.readable), 3)))
           filter (where s.word is not null) as shared,
         -- The items with all of them (prompt words are letters and digits only, so
         -- quoting them is safe).
         '{title summary questions atoms project} : ('
           || group_concat('"' || s.word || '"', ' AND ') || ')' as joint_query,
         -- How many of them have their items listed (see `listed`), their lists (a JSON
         -- array of them), and the query of the others.
         count(w.ids) as listed,
         '[' || group_concat(w.ids, ',') || ']' as listed_ids,
         '{title summary questions atoms project} : ('
           || group_concat('"' || s.word || '"', ' AND ') filter (where w.ids is null)
           || ')' as unlisted_query
  from shared as s
  -- Each shared word's count, made with the pool's (the word as it is). Where the rule
  -- does not weigh words, none was made.
  cross join rule as r
  left join counts as w on r.weighs and w.is_word and w.q = '"' || s.word || '"'
  cross join library as l
  group by s.id
),
-- The candidates with two or more shared words whose weights add up to enough (unless
-- all are explained): their words are counted together for the first candidate of each
-- set of words, and the count given to the others. Where some of the words have their
-- items listed (see `listed`), the items in each of those lists.
sets as materialized (
  select c.*,
         case when c.counted and c.first_of_set and c.listed > 0 then
           recall_in_every(c.listed_ids)
         end as joint_ids
  from (select judged.*, counted,
               row_number() over (partition by joint_query, counted order by id) = 1
                 as first_of_set
        from (select judged.*,
                     overlap >= 2 and weighs
                       and (coalesce(:candidates, 0) = 1 or weight >= min_weight) as counted
              from judged) as judged) as c
),
-- How many items hold all of a set's words: those in every list where each word has
-- its list; else, where fifty items or fewer are in every list, those of them FTS5
-- finds the other words in (common words: FTS5 finding them in an item by its rowid
-- soon reaches an item holding them, where for a rare word it may seek to the end of
-- its positions); else FTS5's count. Among the readable items. (Each CTE here is read
-- once: SQLite expands a CTE again for each reference, with all it reads.)
together as materialized (
  select c.*,
         case when not (c.counted and c.first_of_set) then null
              when c.listed = c.overlap or json_array_length(c.joint_ids) <= 50 then
           (select count(*) from json_each(c.joint_ids) as x
            where (c.listed = c.overlap
                   or exists (select 1 from items_fts as f
                              where f.rowid = x.value and items_fts match c.unlisted_query))
              and (:sources is null
                   or exists (select 1 from items as i
                              where i.id = x.value
                                and recall_source_allowed(i.source, :sources))))
              else
           (select count(*) from items_fts as f
            where items_fts match c.joint_query
              and (:sources is null
                   or exists (select 1 from items as i
                              where i.id = f.rowid
                                and recall_source_allowed(i.source, :sources))))
         end as own_count
  from sets as c
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
