-- 0007: an item's neighbours, for the titles it is indexed with (its context column, and
-- its vector's text), are the items of its own source in its project (or, without a
-- project, of its source without one). Access is by source: a caller allowed some
-- sources reads the context columns of their items only, so a context holding another
-- source's titles would let that caller match words of items it may not read. Within a
-- source, neighbours are as before: the `index_context_radius` items just before and
-- after in the order (occurred_at, id), at most `index_context_gap_minutes` apart.
--
-- Each side is found in two reads of the (source, project, occurred_at) index: the
-- items at the same time with the next ids (an equality on the time and a range on the
-- id, which the index holds last), then the later (or earlier) times. A single range
-- over "a later time, or the same time and a later id" cannot seek on the id, and read
-- every item sharing the time: a write among many equal times cost as many reads as
-- there were ties.

create index items_by_run on items (source, project, occurred_at);

-- The duplicate lookup of every write (sql/find_duplicate.sql) compares an item with
-- the items of its source at its time: by the start of their titles too, so that it
-- reads only the items that may be identical, not every item sharing the time.
create index items_by_content on items (source, occurred_at, substr(title, 1, 64));

drop view items_context_wanted;
drop view items_neighbours;

create view items_neighbours as
with setting as (
  select coalesce((select cast(value as integer) from recall_meta
                   where key = 'index_context_radius'), 1) as radius,
         coalesce((select cast(value as real) from recall_meta
                   where key = 'index_context_gap_minutes'), 30) as gap
)
select i.id as of_id, n.id as id
from items as i
cross join items as n on n.id in (
  select id from (
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at = i.occurred_at and y.id > i.id
      order by y.id limit (select radius from setting))
    union all
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at > i.occurred_at
        and y.occurred_at <= strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                      '+' || (select gap from setting) || ' minutes')
      order by y.occurred_at, y.id limit (select radius from setting))
    order by occurred_at, id limit (select radius from setting)))
union all
select i.id, n.id
from items as i
cross join items as n on n.id in (
  select id from (
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at = i.occurred_at and y.id < i.id
      order by y.id desc limit (select radius from setting))
    union all
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at < i.occurred_at
        and y.occurred_at >= strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                      '-' || (select gap from setting) || ' minutes')
      order by y.occurred_at desc, y.id desc limit (select radius from setting))
    order by occurred_at desc, id desc limit (select radius from setting)));

-- As in 0006.
create view items_context_wanted as
select i.id,
       coalesce((select group_concat(n.title, ' ')
                 from items as n
                 where n.id in (select v.id from items_neighbours as v where v.of_id = i.id)),
                '') as context
from items as i;

-- Every context made again, and the index with it, as the triggers do: the index
-- forgets each changed item, the item takes its new context, the index takes it again.
insert into items_context_stale (id, context)
  select w.id, w.context from items_context_wanted as w
  join items as i on i.id = w.id
  where i.context is not w.context;
insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
  select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
  from items_context_stale as s join items as i on i.id = s.id;
update items set context = (select s.context from items_context_stale as s where s.id = items.id)
  where id in (select id from items_context_stale);
insert into items_fts (rowid, title, summary, questions, atoms, project, context)
  select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
  from items_context_stale as s join items as i on i.id = s.id;
delete from items_context_stale;
