-- `recall status`: what the library holds, one row per fact. grouping 'total' is the
-- number of items; 'source' one row per source (an agent's, or an import's); 'project'
-- the :top projects with the most items (name NULL: the items of no project; 5 when
-- :top is unset); 'projects' how many projects there are in all; 'capture_files' how
-- many files `recall capture` has read (sql/migrations/0004_capture.sql).
select 'total' as grouping, null as name, count(*) as items from items
union all
select 'source', source, count(*) from items group by source
union all
select * from (
  select 'project', project, count(*) from items
  group by project order by count(*) desc, project limit coalesce(:top, 5)
)
union all
select 'projects', null, count(distinct project) from items
union all
select 'capture_files', null, count(*) from capture_files;
