-- set_kind: sets the kind of memory of items (:kind, one of the library's kinds, checked
-- by the caller), or takes it away (:kind NULL), for `recall kind` and `recall ui`.
-- Parameters: :ids, a JSON array of ids; :kind; :sources, a JSON array of glob patterns
-- of readable sources (NULL: all): an item of another source is left as it is, as a
-- missing one. Returns the id of each item set (whether or not it had that kind).
-- The index does not hold the kind: no trigger of the index runs.
update items set kind = :kind
where id in (select cast(value as integer) from json_each(:ids))
  and recall_source_allowed(source, :sources)
returning id;
