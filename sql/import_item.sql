-- Adds one item, or replaces the item with the same id (an upsert: the update triggers
-- keep the index in step). Parameters: :id (NULL for a new item), :source, :project,
-- :title, :summary, :questions, :atoms, :occurred_at (ISO-8601 UTC), :transcript.
insert into items (id, source, project, title, summary, questions, atoms, occurred_at, transcript)
values (:id, :source, :project, :title, :summary, :questions, :atoms, :occurred_at, :transcript)
on conflict (id) do update set
  source = excluded.source,
  project = excluded.project,
  title = excluded.title,
  summary = excluded.summary,
  questions = excluded.questions,
  atoms = excluded.atoms,
  occurred_at = excluded.occurred_at,
  transcript = excluded.transcript,
  imported_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
