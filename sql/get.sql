-- One item by id, only when its source is allowed. A forbidden item answers exactly like
-- a missing one. Parameters: :id; :sources, a JSON array of glob patterns (NULL: all);
-- :transcript, 1 to include the transcript.
select id, source, project, title, summary, questions, atoms, occurred_at, imported_at,
       case when :transcript then transcript end as transcript
from items
where id = :id
  and recall_source_allowed(items.source, :sources);
