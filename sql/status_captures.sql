-- `recall status`: for each agent `recall capture` has read (capture_segments.agent),
-- how many of its sessions it captured, how many of the items it made are still in the
-- library, and its last capture: the newest imported_at among those items, that item's
-- session, and how many items that session has. Under access globs (:sources, a JSON
-- array; NULL for every source) only the items of the sources they allow count, and an
-- agent or a session is listed only for such items.
with captured as (
  select s.agent, s.session, i.imported_at
  from capture_segments as s
  join items as i on i.id = s.item_id
  where :sources is null or recall_source_allowed(i.source, :sources)
),
newest as (
  select agent, session, imported_at,
         row_number() over (partition by agent order by imported_at desc, session) as n
  from captured
)
select a.agent,
       case when :sources is null
         then (select count(distinct s.session) from capture_segments as s
               where s.agent = a.agent)
         else (select count(distinct c.session) from captured as c
               where c.agent = a.agent)
       end as sessions,
       (select count(*) from captured as c where c.agent = a.agent) as items,
       n.imported_at as last_at,
       n.session as last_session,
       (select count(*) from captured as c
        where c.agent = a.agent and c.session = n.session) as last_session_items
from (select distinct agent from capture_segments where :sources is null
      union select agent from captured) as a
left join newest as n on n.agent = a.agent and n.n = 1
order by a.agent;
