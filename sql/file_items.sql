-- file_items: the items that edited or named a file, newest first: what the session hook
-- shows when an agent opens the file, and `recall search --file`. A file's history is
-- read in time order, as `git log -- FILE` reads it.
--
-- An item names the file when its title, summary, questions or atoms hold :file as
-- written (case as well); it edited the file when a line of its atoms (capture writes
-- there the files a session wrote or edited, one a line) is the file or ends with
-- `/` and the file. FTS5 finds the candidates by the path as a phrase; the exact check
-- reads each of them.
--
-- Parameters (unset = NULL = the default):
--   :file            the file as items name it: its path relative to the top folder of
--                    its checkout (so that another clone of the repository matches), or
--                    its absolute path outside one (unset or blank: no results)
--   :query           only items that also match this free text (recall_match); unset: all
--   :tokenizer, :drop_stopwords   as in sql/search.sql, for :query
--   :project, :source   exact filters; the project's list also holds the global items
--   :since, :until   since inclusive, until exclusive; bare dates are UTC
--   :kinds           JSON array of kinds: only items of one of them; NULL: any item
--   :sources         JSON array of glob patterns of readable sources; NULL: all
--   :limit           default :default_limit (3), at most 50
--
-- Columns: id, date, title, project, source, kind, global, edited (1 or 0).
with named as (
  select f.rowid as id
  from items_fts as f
  where trim(coalesce(:file, '')) <> ''
    and items_fts match
        '{title summary questions atoms} : "' || replace(:file, '"', '""') || '"'
        || case when :query is null then ''
                else ' AND {title summary questions atoms project} : ('
                     || coalesce(recall_match(:query, :tokenizer, coalesce(:drop_stopwords, 1)),
                                 '""') || ')' end
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
       (instr(char(10) || i.atoms || char(10), char(10) || :file || char(10)) > 0
        or instr(i.atoms || char(10), '/' || :file || char(10)) > 0) as edited
from named as n
join items as i on i.id = n.id
where instr(i.title || char(10) || i.summary || char(10) || i.questions || char(10)
            || i.atoms, :file) > 0
  and (:project is null or i.project = :project or i.global = 1)
  and (:source is null or i.source = :source)
  and (:since is null or i.occurred_at >= recall_time(:since))
  and (:until is null or i.occurred_at < recall_time(:until))
  and (:kinds is null or i.kind in (select value from json_each(:kinds)))
  and recall_source_allowed(i.source, :sources)
order by i.occurred_at desc, i.id desc
limit recall_limit(:limit, coalesce(:default_limit, 3), 50);
