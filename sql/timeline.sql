-- timeline: items newest first, in a project and/or a source, between two times.
--
-- Parameters (unset = NULL = the default):
--   :project, :source   exact filters (either, both or none); the project's list also
--                       holds the global items (visible in every project)
--   :since, :until      since inclusive, until exclusive; bare dates are UTC
--   :kinds              JSON array of kinds: only items of one of them; NULL: any item
--   :sources            JSON array of glob patterns of readable sources; NULL: all
--   :limit              default :default_limit (20), at most 50
--
-- Columns: id, date, title, project, source, kind, global.
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global
from items as i
where (:project is null or i.project = :project or i.global = 1)
  and (:source is null or i.source = :source)
  and (:since is null or i.occurred_at >= recall_time(:since))
  and (:until is null or i.occurred_at < recall_time(:until))
  and (:kinds is null or i.kind in (select value from json_each(:kinds)))
  and recall_source_allowed(i.source, :sources)
order by i.occurred_at desc, i.id desc
limit recall_limit(:limit, coalesce(:default_limit, 20), 50);
