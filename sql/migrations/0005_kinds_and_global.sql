-- 0005: what kind of memory an item is, and whether it holds in every project.
--
-- kind: a short word (decision, bugfix, feature, discovery, gotcha, note, or one the
-- configuration adds), or NULL for none. The set can grow without a migration, so the
-- table checks only the shape; `add`, `import` and the MCP `add` tool check the word.
-- Not indexed as text: a filter, not something to search for.
--
-- global: 1 for an item visible in every project (a rule such as "use bun, not npm"):
-- a project-filtered search, timeline or related list includes it. 0 otherwise.
--
-- Added columns keep every row and id, and the FTS5 index and its triggers, which name
-- the indexed columns only, stay as they are.
alter table items add column kind text
  check (kind is null or (length(kind) between 1 and 32 and kind not glob '*[^a-z0-9-]*'));
alter table items add column global integer not null default 0 check (global in (0, 1));

-- The global items, in time: few, and read under every project filter.
create index items_global on items (occurred_at) where global = 1;
