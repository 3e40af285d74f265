-- judge_items: what the judge sees of each candidate of a search (docs/judge.md).
--
-- Parameters:
--   :ids     a JSON array of item ids: the candidates, in the order they are judged
--   :filter  0: exactly these items; 1: instead, items that pass the filters below, at
--            most :limit of them: the filtered set, when it is small (unordered, so
--            that telling a large set costs :limit rows, not a sort of the library)
--   :project, :source, :since, :until, :kinds, :sources   the search's filters, as in
--            search.sql (the project's global items pass the project filter)
--   :limit   with :filter, how many items to read at most
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
       i.summary, i.questions, i.atoms
from items as i
where not coalesce(:filter, 0)
  and i.id in (select value from json_each(coalesce(:ids, '[]')))
union all
select * from (
  select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
         i.summary, i.questions, i.atoms
  from items as i
  where coalesce(:filter, 0)
    and (:project is null or i.project = :project or i.global = 1)
    and (:source is null or i.source = :source)
    and (:since is null or i.occurred_at >= recall_time(:since))
    and (:until is null or i.occurred_at < recall_time(:until))
    and (:kinds is null or i.kind in (select value from json_each(:kinds)))
    and recall_source_allowed(i.source, :sources)
  limit coalesce(:limit, 0)
);
