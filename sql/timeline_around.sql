-- timeline_around: the items just before and after one item in time, oldest first, the
-- item itself among them (anchor = 1).
--
-- The order is (occurred_at, id): items at the same time follow their ids. The items
-- around are those of the item's project, or, for an item without a project, those of
-- its source without one; with :scope 'all', every item. Only readable sources count,
-- and an item the caller may not read gives no rows, as a missing one does.
--
-- Parameters (unset = NULL = the default):
--   :item_id         the item
--   :before, :after  how many items before and after it: default 3 each, at most 50
--   :kinds           JSON array of kinds: only neighbours of one of them (the item
--                    itself is always there); NULL: any
--   :scope           'all': around it in the whole library; NULL: in its project
--   :sources         JSON array of glob patterns of readable sources; NULL: all
--
-- Columns: id, date, title, project, source, kind, global, anchor.
with
anchor as (
  select i.id, i.project, i.source, i.occurred_at
  from items as i
  where i.id = :item_id
    and recall_source_allowed(i.source, :sources)
),
counts as (
  select max(0, min(50, coalesce(:before, 3))) as before,
         max(0, min(50, coalesce(:after, 3))) as after
),
-- The item, then its neighbours on each side: one branch of three holds rows (its
-- project; its source's items without one; or every item), each walking a stretch of
-- the (project, occurred_at), (source, occurred_at) or (occurred_at) index from the item
-- outwards, so that a long project costs only the rows shown.
chosen as (
  select id, 1 as anchor from anchor
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where coalesce(:scope, '') <> 'all' and a.project is not null and y.project = a.project
      and y.occurred_at <= a.occurred_at
      and (y.occurred_at < a.occurred_at or y.id < a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at desc, y.id desc
    limit (select before from counts))
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where coalesce(:scope, '') <> 'all' and a.project is null and y.source = a.source
      and y.project is null
      and y.occurred_at <= a.occurred_at
      and (y.occurred_at < a.occurred_at or y.id < a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at desc, y.id desc
    limit (select before from counts))
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where :scope = 'all'
      and y.occurred_at <= a.occurred_at
      and (y.occurred_at < a.occurred_at or y.id < a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at desc, y.id desc
    limit (select before from counts))
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where coalesce(:scope, '') <> 'all' and a.project is not null and y.project = a.project
      and y.occurred_at >= a.occurred_at
      and (y.occurred_at > a.occurred_at or y.id > a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at, y.id
    limit (select after from counts))
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where coalesce(:scope, '') <> 'all' and a.project is null and y.source = a.source
      and y.project is null
      and y.occurred_at >= a.occurred_at
      and (y.occurred_at > a.occurred_at or y.id > a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at, y.id
    limit (select after from counts))
  union all
  select * from (
    select y.id, 0 as anchor
    from anchor as a
    cross join items as y
    where :scope = 'all'
      and y.occurred_at >= a.occurred_at
      and (y.occurred_at > a.occurred_at or y.id > a.id)
      and (:kinds is null or y.kind in (select value from json_each(:kinds)))
      and recall_source_allowed(y.source, :sources)
    order by y.occurred_at, y.id
    limit (select after from counts))
)
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global,
       c.anchor
from chosen as c
cross join items as i on i.id = c.id
order by i.occurred_at, i.id;
