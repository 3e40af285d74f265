-- Adds one item, or replaces the item with the same id (an upsert: the update triggers
-- keep the index in step). Parameters: :id (NULL for a new item), :source, :project,
-- :title, :summary, :questions, :atoms, :occurred_at (ISO-8601 UTC), :transcript,
-- :sources (the readable sources' globs, as in every query; NULL: all) and :ids_used
-- (the highest id used before this write began; NULL: as sqlite_sequence records it).
-- :marks, 1 when the write says what kind the item is and whether it is global: then
-- :kind (a word, NULL for none) and :global (1 or 0, NULL: 0) are the item's. A write
-- without :marks (one that knows nothing of them) adds an item without either and
-- keeps those of an item it replaces.
--
-- An id must name an item the caller may read (which is replaced), or no item at all
-- and be above every id ever used: ids are never reused, so an id someone saw earlier
-- never comes to name another item. Otherwise nothing is written (no row changes).
insert into items (id, source, project, title, summary, questions, atoms, occurred_at, transcript,
                   kind, global)
select :id, :source, :project, :title, :summary, :questions, :atoms, :occurred_at, :transcript,
       case when :marks then :kind end, case when :marks then coalesce(:global, 0) else 0 end
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
  kind = case when :marks then excluded.kind else items.kind end,
  global = case when :marks then excluded.global else items.global end,
  imported_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now');
