-- Items by id, only those whose source is allowed: a forbidden item answers exactly like
-- a missing one (no row). Parameters: :id, one id, or :ids, a JSON array of ids (rows
-- in its order, each id once); :sources, a JSON array of glob patterns (NULL: all);
-- :transcript, 1 to include the transcript.
select items.id, source, project, title, summary, questions, atoms, occurred_at,
       imported_at, kind, global,
       case when :transcript then transcript end as transcript
from (select cast(value as integer) as id, min(cast(key as integer)) as position
      from json_each(coalesce(:ids, json_array(:id)))
      group by 1) as wanted
cross join items on items.id = wanted.id
where recall_source_allowed(items.source, :sources)
order by wanted.position;
