-- The adversarial FTS5 tables of the safety invariant ("no output of recall_match makes
-- MATCH fail"), shared by tests/match_safety.rs, tests/properties.rs,
-- tests/hosts/match_safety.py and the fuzz target fts_match: rows full of what FTS5
-- reads as syntax, in a table of each tokenizer family (sqlite-recall's own `recall`
-- included: every host registers it with the functions). Runs in SQLite 3.40 and later;
-- the Rust hosts add `trigram remove_diacritics 1` (3.45+) with `fts_tables_345`.
create table fts_rows (body text);
insert into fts_rows (body) values
  ('The consent banner migration'),
  ('node.js and c++ notes: NEAR(a b) AND x* OR y'),
  ('¿Cuándo pintó Melanie el amanecer? 東京 😀'),
  ('error: "unterminated string" at col:3');
-- Each table and the tokenizer spec recall_match is told.
create table fts_tables (name text, tokenizer text);
insert into fts_tables values ('tri', 'trigram'), ('uni', 'unicode61 remove_diacritics 2'), ('rec', 'recall');
create virtual table tri using fts5 (body, tokenize = 'trigram');
create virtual table uni using fts5 (body, tokenize = 'unicode61 remove_diacritics 2');
create virtual table rec using fts5 (body, tokenize = 'recall');
insert into tri (body) select body from fts_rows;
insert into uni (body) select body from fts_rows;
insert into rec (body) select body from fts_rows;
