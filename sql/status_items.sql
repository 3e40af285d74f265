-- `recall status`: what the library holds, one row per fact. grouping 'total' is the
-- number of items; 'source' one row per source (an agent's, or an import's); 'project'
-- the :top groups of items by project with the most items (name NULL: the items of no
-- project, a blank name among them, as libraries written before blank names were
-- stored as none may hold it; 5 when :top is unset); 'projects' how many such groups
-- there are in all, counted as the list counts them; 'capture_files' how many files
-- `recall capture` has read (sql/migrations/0004_capture.sql). Under access globs
-- (:sources, a JSON array; NULL for every source) only the items of the sources they
-- allow are counted.
with allowed as (
  select source, project from items
  where :sources is null or recall_source_allowed(source, :sources)
)
select 'total' as grouping, null as name, count(*) as items from allowed
union all
select 'source', source, count(*) from allowed group by source
union all
select * from (
  select 'project', nullif(trim(project), '') as name, count(*) from allowed
  group by name order by count(*) desc, name limit coalesce(:top, 5)
)
union all
select 'projects', null, count(*) from (
  select 1 from allowed group by nullif(trim(project), '')
)
union all
select 'capture_files', null, count(*) from capture_files;
