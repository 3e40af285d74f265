-- atom_key_item: the item :id as the session hook lists it, with its atoms, where it is of
-- :project (or global; NULL: every project) and :sources allows it; no row otherwise.
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global, i.atoms
from items as i
where i.id = :id
  and (:project is null or i.project = :project or i.global = 1)
  and recall_source_allowed(i.source, :sources);
