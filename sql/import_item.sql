-- Adds one item, or replaces the item with the same id (an upsert: the update triggers
-- keep the index in step). Parameters: :id (NULL for a new item), :source, :project,
-- :title, :summary, :questions, :atoms, :occurred_at (ISO-8601 UTC), :transcript,
-- :sources (the readable sources' globs, as in every query; NULL: all) and :ids_used
-- (the highest id used before this write began; NULL: as sqlite_sequence records it).
--
-- An id must name an item the caller may read (which is replaced), or no item at all
-- and be above every id ever used: ids are never reused, so an id someone saw earlier
-- never comes to name another item. Otherwise nothing is written (no row changes).
insert into items (id, source, project, title, summary, questions, atoms, occurred_at, transcript)
select :id, :source, :project, :title, :summary, :questions, :atoms, :occurred_at, :transcript
where :id is null
   -- (CASE, so that with every source allowed a damaged source, re-imported to mend
   -- it, is never read)
   or (select case when :sources is null then 1 else recall_source_allowed(source, :sources) end
       from items where id = :id)
   or (:id > coalesce(:ids_used, (select seq from sqlite_sequence where name = 'items'), 0)
       and not exists (select 1 from items where id = :id))
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
