-- 0005: index-time context. In a conversation, a log or a run of notes the words of a
-- question are often split between an item and its neighbours: each item keeps the
-- titles of its neighbours in `items.context`, which the index holds in a column of its
-- own (weighed apart by the queries), so that such a question matches the item itself.
--
-- Neighbours are as for search's context stage: the items just before and after an
-- item in the order (occurred_at, id), in its project, or among the items of its source
-- without a project, at most `index_context_gap_minutes` apart (recall_meta; 30 when
-- absent), `index_context_radius` on each side (1 when absent; 0 keeps every context
-- empty). The triggers below keep every context in step on every write: an item that
-- arrives, moves, changes its title or leaves changes its neighbours' contexts, and the
-- index follows; `recall rebuild` recomputes them all.

alter table items add column context text not null default '';

-- Each item's neighbours.
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
  select y.id from items as y
  where y.project = i.project
    and y.occurred_at between i.occurred_at
        and strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                     '+' || (select gap from setting) || ' minutes')
    and (y.occurred_at > i.occurred_at or y.id > i.id)
  order by y.occurred_at, y.id limit (select radius from setting))
union all
select i.id, n.id
from items as i
cross join items as n on n.id in (
  select y.id from items as y
  where y.project = i.project
    and y.occurred_at between strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                       '-' || (select gap from setting) || ' minutes')
        and i.occurred_at
    and (y.occurred_at < i.occurred_at or y.id < i.id)
  order by y.occurred_at desc, y.id desc limit (select radius from setting))
union all
select i.id, n.id
from items as i
cross join items as n on n.id in (
  select y.id from items as y
  where i.project is null and y.source = i.source and y.project is null
    and y.occurred_at between i.occurred_at
        and strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                     '+' || (select gap from setting) || ' minutes')
    and (y.occurred_at > i.occurred_at or y.id > i.id)
  order by y.occurred_at, y.id limit (select radius from setting))
union all
select i.id, n.id
from items as i
cross join items as n on n.id in (
  select y.id from items as y
  where i.project is null and y.source = i.source and y.project is null
    and y.occurred_at between strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                       '-' || (select gap from setting) || ' minutes')
        and i.occurred_at
    and (y.occurred_at < i.occurred_at or y.id < i.id)
  order by y.occurred_at desc, y.id desc limit (select radius from setting));

-- The context each item should hold: its neighbours' titles.
create view items_context_wanted as
select i.id,
       coalesce((select group_concat(n.title, ' ')
                 from items as n
                 where n.id in (select v.id from items_neighbours as v where v.of_id = i.id)),
                '') as context
from items as i;

-- The items whose context a write may have changed, with the context each should hold
-- (filled and emptied within one statement's triggers). No OR IGNORE below: an outer
-- statement's conflict clause would override it.
create table items_context_stale (
  id integer primary key,
  context text
);

update items set context = (select w.context from items_context_wanted as w
                            where w.id = items.id);

-- The index, with the new column: made again and filled from the items.
drop trigger items_fts_before_insert;
drop trigger items_fts_after_insert;
drop trigger items_fts_after_delete;
drop trigger items_fts_after_update;
drop table items_fts;
drop table items_fts_pending;

create virtual table items_fts using fts5 (
  title, summary, questions, atoms, project, context,
  content = 'items', content_rowid = 'id',
  tokenize = 'trigram remove_diacritics 1'
);
insert into items_fts (items_fts) values ('rebuild');

-- As in 0001: the old values of a replaced row, kept aside for the trigger that runs
-- next.
create table items_fts_pending (
  id integer primary key,
  title, summary, questions, atoms, project, context
);

-- The neighbours an item has before a write moves, changes or removes it.
create trigger items_context_before_delete before delete on items begin
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = old.id
    except select id from items_context_stale;
end;

create trigger items_context_before_update
before update of id, title, project, source, occurred_at on items begin
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = old.id
    except select id from items_context_stale;
end;

create trigger items_fts_before_insert before insert on items begin
  insert or replace into items_fts_pending (id, title, summary, questions, atoms, project, context)
    select id, title, summary, questions, atoms, project, context from items where id = new.id;
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
end;

-- Each trigger after a write indexes the row, then brings the stale contexts in step:
-- the index forgets each changed item, the item takes its new context, and the index
-- takes the item again. A context written by these statements alone fires no trigger
-- (no trigger watches the column), so nothing here depends on the order triggers fire
-- in or on recursive_triggers.
create trigger items_fts_after_insert after insert on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', id, title, summary, questions, atoms, project, context
    from items_fts_pending where id = new.id;
  delete from items_fts_pending where id = new.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project, new.context);
  insert into items_context_stale (id)
    select new.id union select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;

create trigger items_fts_after_delete after delete on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project,
            old.context);
  delete from items_fts_pending where id = old.id;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;

create trigger items_fts_after_update
after update of id, title, summary, questions, atoms, project, source, occurred_at on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project,
            old.context);
  delete from items_fts_pending where id = old.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project, new.context);
  insert into items_context_stale (id)
    select new.id union select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;
