-- export: the items `recall export` writes as JSON Lines, in id order, each with every
-- field `recall import` reads back (its id, kind and global mark among them); only items
-- of the readable sources, as every query.
--
-- Parameters (unset = NULL = the default):
--   :project, :source      exact filters (no global items of other projects: an export
--                          of a project holds that project's items)
--   :since, :until         time bounds: since inclusive, until exclusive
--   :kinds                 JSON array of kinds: only items of one of them
--   :sources               JSON array of glob patterns of readable sources; NULL: all
--   :transcript            1: each item's transcript too
--   :after                 the last id already read (batches); default: from the first
--   :batch                 how many rows, default 500
--
-- Columns: id, source, project, title, summary, questions, atoms, occurred_at, kind,
-- global, transcript (NULL unless :transcript).
select i.id, i.source, i.project, i.title, i.summary, i.questions, i.atoms, i.occurred_at,
       i.kind, i.global,
       case when :transcript then i.transcript end as transcript
from items as i
where i.id > coalesce(:after, -9223372036854775808)
  and (:project is null or i.project = :project)
  and (:source is null or i.source = :source)
  and (:since is null or i.occurred_at >= recall_time(:since))
  and (:until is null or i.occurred_at < recall_time(:until))
  and (:kinds is null or i.kind in (select value from json_each(:kinds)))
  and recall_source_allowed(i.source, :sources)
order by i.id
limit max(1, coalesce(:batch, 500));
