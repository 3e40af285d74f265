-- set_global: marks items global (:global = 1: visible in every project) or of their
-- own project only again (:global = 0), for `recall promote` and `recall demote`.
-- Parameters: :ids, a JSON array of ids; :global; :sources, a JSON array of glob
-- patterns of readable sources (NULL: all): an item of another source is left as it is,
-- as a missing one. Returns the id of each item marked (whether or not it was already).
-- The index does not hold the mark: no trigger of the index runs.
update items set global = :global
where id in (select cast(value as integer) from json_each(:ids))
  and recall_source_allowed(source, :sources)
returning id;
