-- explain_matches: why each hit of a search matched. For each item, each term searched
-- and each field, whether FTS5 finds the term there (under the library's tokenizer, as
-- the search did), with the field's text: the CLI places the term in it, as a whole
-- word, at the start of a longer word or only inside another word (`lock` in `clock`).
--
-- Parameters:
--   :ids                    JSON array of item ids (an answer's results)
--   :terms                  JSON array of the terms as they stood in the MATCH (what
--                           `--explain` lists as terms, after pruning)
--   :context_column_weight  as in search.sql: at 0 the neighbours' titles (context)
--                           did not match, and are not read
--   :sources                JSON array of glob patterns of readable sources; NULL: all
--
-- Columns: id, term (its index in :terms, from 0), field (title, summary, questions,
-- atoms, project or context), text (the field's stored text). One row per item, term
-- and field that holds the term, in the order of :ids, :terms and the fields.
with
-- The (item, term) pairs FTS5 finds in any field it searched: most terms of a long
-- query are in few of the hits, and only these pairs are asked of each field below.
held as (
  select h.key as n, i.id, t.key as term, t.value as phrase
  from json_each(:ids) as h
  cross join items as i on i.id = h.value
  cross join json_each(:terms) as t
  where recall_source_allowed(i.source, :sources)
    -- One FTS5 lookup by rowid: the term as an FTS5 string. At weight 0 the
    -- neighbours' titles did not match (as in search.sql).
    and exists (
      select 1 from items_fts as f
      where f.rowid = i.id
        and items_fts match (
          case when coalesce(:context_column_weight, 0.7) > 0 then ''
               else '{title summary questions atoms project} : ' end
          || '"' || replace(t.value, '"', '""') || '"'))
)
select d.id,
       d.term,
       c.value as field,
       case c.value
         when 'title' then i.title
         when 'summary' then i.summary
         when 'questions' then i.questions
         when 'atoms' then i.atoms
         when 'project' then i.project
         else i.context
       end as text
from held as d
cross join items as i on i.id = d.id
cross join json_each('["title", "summary", "questions", "atoms", "project", "context"]') as c
where (c.value <> 'context' or coalesce(:context_column_weight, 0.7) > 0)
  and exists (
    select 1 from items_fts as f
    where f.rowid = d.id
      and items_fts match '{' || c.value || '} : "' || replace(d.phrase, '"', '""') || '"')
order by d.n, d.term, c.key;
