-- hybrid: the search of `recall search --embed-cmd`, literal and vector channels fused,
-- in the sqlite3 shell: sql/nearest.sql's rows (ids and distances) become
-- sql/search.sql's :nearest.
--
-- Needs, in the shell (3.40 reads a library made with
-- `recall init --tokenizer 'unicode61 remove_diacritics 2'`; newer ones any library):
--   .load sqlite-vec's vec0 loadable: `pip install sqlite-vec` ships it as
--         sqlite_vec/vec0.so (`python3 -c 'import sqlite_vec; print(sqlite_vec.loadable_path())'`)
--   .load librecall0 (this project's extension)
--   a library with vectors (`recall embed`), and the query's vector from the same
--   embedder (its answer to {"id": 1, "texts": ["the query"]}).
-- It runs from the repository's root (it reads sql/nearest.sql and sql/search.sql by
-- those paths), in a shell that may start a command (`.read '|…'`; not --safe), with
-- sh, echo and cat.
--
--   sqlite3 library.db
--   .load /path/to/sqlite_vec/vec0
--   .load target/release/librecall0
--   .param set :query "'the site was down'"
--   .param set :query_vector '[0.12, -0.03, …]'
--   .param set :tokenizer "'unicode61 remove_diacritics 2'"
--   .read sql/hybrid.sql
--
-- Parameters: search.sql's (nearest.sql's filters are the same :project, :source,
-- :since, :until, :sources) and :query_vector; nearest.sql's :k is set from :pool.
-- Left set afterwards: :k and :nearest, the items nearest the query, each
-- {"id", "distance"} (a later `.read sql/search.sql` still fuses them: `.param unset
-- :nearest` for the literal search).
.param init
-- The shell binds every parameter from this table, so plain statements can set them
-- (`.param set` binds none in its value, and keeps a value that fails as its text).
-- As `recall search` does, nearest.sql looks as far as search.sql's pool: its :k is
-- :pool (set on every run, so that a later :pool counts).
replace into temp.sqlite_parameters(key, value) values (':k', :pool);
-- A list of an earlier run must not stand in for this one's if nearest.sql fails.
delete from temp.sqlite_parameters where key = ':nearest';
drop table if exists temp.recall_nearest;
-- A dot-command cannot sit inside a statement, so nearest.sql's query is read through sh
-- behind `create table … as`: the query stays written once, in its file.
.read '|echo create temp table recall_nearest as; cat sql/nearest.sql'
-- Nearest first (json_group_array takes the rows in the order of the subquery), each with
-- its distance, which the convex fusion weighs.
replace into temp.sqlite_parameters(key, value)
  select ':nearest', json_group_array(json_object('id', id, 'distance', distance))
  from (select id, distance from temp.recall_nearest order by rank);
drop table temp.recall_nearest;
.read sql/search.sql
