-- recall_bm25, recall_bm25_text and recall_bm25_bound: FTS5's bm25() from given phrase
-- counts, to the bit; recall_fts5_rows: the rows FTS5 counts; recall_fts5_columns: the
-- columns a row holds the query in.
create virtual table b using fts5(title, body, tokenize = 'unicode61');
insert into b(title, body) values ('deploy the shop', 'the shop deploy failed twice'), ('shop notes', 'notes on the shop and its deploy'), ('lock', 'database is locked again and again'), ('deploy', 'deploy deploy deploy a long body of words that goes on and on past the rest'), ('empty', ''), ('shop', 'shop');
insert into b(title, body) with recursive n(i) as (select 1 union all select i + 1 from n where i < 40) select 'filler ' || i, 'words of filler rows ' || i from n;
create table hits as select (select count(*) from b where b match 'deploy') as deploy, (select count(*) from b where b match 'shop') as shop, (select count(*) from b where b match 'filler') as filler, (select count(*) from b where b match 'again') as again;
select 'bm25_01', (select count(*) from b, hits where b match 'deploy OR shop OR filler' and recall_bm25(b, json_array(hits.deploy, hits.shop, hits.filler), 2.0, 1.0) = bm25(b, 2.0, 1.0)) = (select count(*) from b where b match 'deploy OR shop OR filler');
select 'bm25_02', (select count(*) from b, hits where b match 'deploy OR shop' and recall_bm25(b, json_array(hits.deploy, hits.shop)) = bm25(b)) = 4;
select 'bm25_03', (select count(*) from b, hits where b match '{title} : (deploy OR again)' and recall_bm25(b, json_array((select count(*) from b where b match '{title} : deploy'), (select count(*) from b where b match '{title} : again')), 0.5, 3.0) = bm25(b, 0.5, 3.0)) = 2;
-- A null phrase adds nothing: the score of a quick query equals the full query's.
select 'bm25_04', (select group_concat(id || ':' || s, ',') from (select b.rowid as id, recall_bm25(b, json_array(null, hits.deploy, hits.shop), 2.0, 1.0) as s from b, hits where b match 'shop AND (deploy OR shop)' order by b.rowid)) = (select group_concat(id || ':' || s, ',') from (select rowid as id, bm25(b, 2.0, 1.0) as s from b where b match 'deploy OR shop' and rowid in (select rowid from b where b match 'shop') order by rowid));
select 'bm25_05', (select count(*) from b, hits where b match 'deploy' and recall_bm25(b, '[]') = 0.0) = 3;
select 'bm25_06', recall_bm25_bound(1, 100) > 0 and recall_bm25_bound(60, 100) = 2.2 * 1e-6;
select 'bm25_07', (select -bm25(b) as s from b where b match 'again' order by s desc limit 1) < recall_bm25_bound((select again from hits), (select count(*) from b));
select 'bm25_08', recall_bm25_bound(null, 10) is null;
select 'bm25_09', recall_bm25(b, 'nope') from b where b match 'shop'; -- error: recall_bm25: hits must be a JSON array of row counts or nulls
select 'bm25_10', recall_bm25(b, '[1, 2]') from b where b match 'shop'; -- error: recall_bm25: hits has 2 entries, but the query has 1 phrases
select 'bm25_11', recall_bm25(b, null) from b where b match 'shop'; -- error: recall_bm25: hits is NULL
select 'bm25_12', recall_bm25(b) from b where b match 'shop'; -- error: recall_bm25: give it the rows holding each phrase
select 'bm25_13', recall_bm25(b, '[-3]') from b where b match 'shop'; -- error: recall_bm25: hits must hold row counts (integers >= 0) or nulls, got -3
select 'bm25_14', recall_bm25_bound(5, 3); -- error: recall_bm25_bound: hits (5) cannot be more than rows (3)
-- recall_bm25_text finds the phrases in the row's text: over the rows of one phrase, the
-- score of all of them, bm25()'s to the bit; a phrase of two words, a null, a weight 0.
select 'bm25_15', (select group_concat(id || ':' || s, ',') from (select b.rowid as id, recall_bm25_text(b, json_array(json_array('deploy', hits.deploy), json_array('shop', hits.shop), json_array('filler', hits.filler)), 2.0, 1.0) as s from b, hits where b match 'shop' order by b.rowid)) = (select group_concat(id || ':' || s, ',') from (select rowid as id, bm25(b, 2.0, 1.0) as s from b where b match 'deploy OR shop OR filler' and rowid in (select rowid from b where b match 'shop') order by rowid));
select 'bm25_16', (select group_concat(id || ':' || s, ',') from (select b.rowid as id, recall_bm25_text(b, json_array(json_array('the shop', (select count(*) from b where b match '"the shop"')), json_array('again', null)), 0.0, 1.5) as s from b where b match 'deploy OR again' order by b.rowid)) = (select group_concat(id || ':' || s, ',') from (select b.rowid as id, recall_bm25(b, json_array(null, null, (select count(*) from b where b match '"the shop"')), 0.0, 1.5) as s from b where b match 'deploy OR again OR "the shop"' and rowid in (select rowid from b where b match 'deploy OR again') order by b.rowid));
create virtual table t using fts5(title, body, tokenize = 'trigram');
insert into t(title, body) values ('Deploy FAILED: DeployDeploy', 'deployment of the café'), ('deplo y', 'redeploy'), ('nothing', 'at all'), ('CAFÉ', 'Café café cafe');
select 'bm25_17', (select count(*) from t where t match 'deploy OR café' and recall_bm25_text(t, json_array(json_array('deploy', (select count(*) from t where t match '"deploy"')), json_array('café', (select count(*) from t where t match '"café"'))), 1.5, 0.5) = bm25(t, 1.5, 0.5)) = 3;
select 'bm25_18', (select count(*) from t where t match 'deploy' and recall_bm25_text(t, '[]') = 0.0) = 2;
select 'bm25_19', recall_bm25_text(t, '[["deploy", 1], "café"]') from t where t match 'deploy'; -- error: recall_bm25_text: phrases must be a JSON array of [phrase, rows] pairs, rows a count or null, got "café"
select 'bm25_20', recall_bm25_text(t, '[["deploy", -1]]') from t where t match 'deploy'; -- error: recall_bm25_text: phrases must be a JSON array of [phrase, rows] pairs, rows a count or null: rows must be an integer >= 0 or null, got -1
select 'bm25_21', recall_bm25_text(t, null) from t where t match 'deploy'; -- error: recall_bm25_text: phrases is NULL
select 'bm25_22', recall_bm25_text(t) from t where t match 'deploy'; -- error: recall_bm25_text: give it the phrases and the rows holding each
-- recall_fts5_rows: the table's rows as FTS5 counts them, in any query of it; after a
-- delete too.
select 'bm25_23', (select recall_fts5_rows(b) from b limit 1) = (select count(*) from b) and (select count(*) from b) = 46;
select 'bm25_24', (select recall_fts5_rows(b) from b where b match 'shop' limit 1) = 46;
select 'bm25_25', (select recall_fts5_rows(t) from t where rowid = 2) = 4;
delete from t where rowid = 3;
select 'bm25_26', (select recall_fts5_rows(t) from t limit 1) = 3;
select 'bm25_27', recall_fts5_rows(b, 1) from b limit 1; -- error: recall_fts5_rows: it takes the table alone: recall_fts5_rows(table)
-- recall_fts5_columns: the columns in which the row holds a phrase of the query, a mask;
-- the rows of a query with no column filter whose mask meets a set of columns are those
-- of the query filtered by them, for one phrase, a phrase of two tokens, and phrases
-- joined by OR, under unicode61 and trigram.
create virtual table m using fts5(a, b, c, tokenize = 'trigram');
insert into m(a, b, c) values ('deploy shop', 'notes', 'shop'), ('notes', 'deploy', 'deploy'), ('nothing', 'here', 'deploy shop'), ('shop', 'the shop', 'x'), ('cafe deploy', 'shop deploy', ''), ('', '', 'shop notes');
select 'bm25_28', (select count(*) from m where m match 'deploy') = 4 and (select recall_fts5_columns(m) from m where m match 'deploy' and rowid = 1) = 1 and (select recall_fts5_columns(m) from m where m match 'deploy' and rowid = 2) = 6 and (select recall_fts5_columns(m) from m where m match 'deploy' and rowid = 3) = 4 and (select recall_fts5_columns(m) from m where m match 'deploy' and rowid = 5) = 3;
select 'bm25_29', (select group_concat(rowid) from m where m match 'shop' and recall_fts5_columns(m) & 3 <> 0) = (select group_concat(rowid) from m where m match '{a b} : shop') and (select count(*) from m where m match '{a b} : shop') = 3;
select 'bm25_30', (select group_concat(rowid) from m where m match '"shop deploy"' and recall_fts5_columns(m) & 3 <> 0) = (select group_concat(rowid) from m where m match '{a b} : "shop deploy"') and (select group_concat(rowid) from m where m match '"shop deploy"') = '5';
select 'bm25_31', (select group_concat(rowid) from m where m match 'notes OR cafe' and recall_fts5_columns(m) & 5 <> 0) = (select group_concat(rowid) from m where m match '{a c} : (notes OR cafe)') and (select count(*) from m where m match '{a c} : (notes OR cafe)') = 3;
select 'bm25_32', (select group_concat(rowid) from b where b match 'deploy' and recall_fts5_columns(b) = 2) = (select group_concat(rowid) from b where b match '{body} : deploy NOT {title} : deploy');
select 'bm25_33', recall_fts5_columns(m, 1) from m where m match 'shop'; -- error: recall_fts5_columns: it takes the table alone: recall_fts5_columns(table)
-- recall_bm25_bounds: the most each row of a pool can score, highest first (ties by
-- rowid): each listed phrase adds its bound to the rows it holds, an unlisted one to
-- every row; the pool is the rows of the phrases that select, among some rowids if given.
select 'bm25_34', (select group_concat(value ->> 0) from json_each(recall_bm25_bounds(100, '[[3, [1, 3, 5], true], [2, [4, 3], 1], [2, [5, 9], false], [40, null, 0]]'))) = '3,5,4,1';
select 'bm25_35', abs((select value ->> 1 from json_each(recall_bm25_bounds(100, '[[3, [1, 3, 5], true], [2, [4, 3], 1], [2, [5, 9], false], [40, null, 0]]')) where value ->> 0 = 3) - (recall_bm25_bound(40, 100) + recall_bm25_bound(3, 100) + recall_bm25_bound(2, 100))) < 1e-9;
select 'bm25_36', (select group_concat(value ->> 0) from json_each(recall_bm25_bounds(100, '[[3, [1, 3, 5], true], [2, [4, 3], 1], [2, [5, 9], false]]', '[9, 4, 5]'))) = '5,4';
select 'bm25_37', (select count(*) from b, json_each(recall_bm25_bounds((select count(*) from b), json_array(json_array(hits.deploy, json((select json_group_array(rowid) from b where b match 'deploy')), 1), json_array(hits.shop, json((select json_group_array(rowid) from b where b match 'shop')), 1)))) as j, hits where b match 'deploy OR shop' and b.rowid = j.value ->> 0 and -bm25(b) < j.value ->> 1) = (select count(*) from b where b match 'deploy OR shop');
select 'bm25_38', recall_bm25_bounds(null, '[]') is null and recall_bm25_bounds(10, '[]') = '[]';
select 'bm25_39', recall_bm25_bounds(10, '[[11, [], true]]'); -- error: recall_bm25_bounds: phrases must be a JSON array of [hits, rowids, selects]: hits a count, rowids an array of integers or null, selects true or false: hits must be a count from 0 to rows (10), got 11
select 'bm25_40', recall_bm25_bounds(10, '[[1, [1]]]', '[1]'); -- error: recall_bm25_bounds: phrases must be a JSON array of [hits, rowids, selects]: hits a count, rowids an array of integers or null, selects true or false, got [1,[1]]
-- recall_bm25_text on a row found by its rowid alone (no MATCH: the pool of sql/related.sql
-- joins its ids): the row's size is its own, where FTS5 leaves it unread (3.40), also with
-- a column weighing nothing, whose text is not otherwise read.
select 'bm25_41', (select group_concat(id || ':' || s, ',') from (select m.rowid as id, recall_bm25_text(b, json_array(json_array('deploy', hits.deploy), json_array('shop', hits.shop)), 2.0, 0.0) as s from (select rowid from b where b match 'deploy OR shop') as m join b on b.rowid = m.rowid, hits order by m.rowid)) = (select group_concat(id || ':' || s, ',') from (select rowid as id, bm25(b, 2.0, 0.0) as s from b where b match 'deploy OR shop' order by rowid));
select 'bm25_42', (select group_concat(id || ':' || s, ',') from (select m.rowid as id, recall_bm25_text(t, json_array(json_array('deploy', (select count(*) from t where t match '"deploy"')), json_array('café', (select count(*) from t where t match '"café"'))), 1.5, 0.5) as s from (select rowid from t where t match 'deploy OR café') as m join t on t.rowid = m.rowid order by m.rowid)) = (select group_concat(id || ':' || s, ',') from (select rowid as id, bm25(t, 1.5, 0.5) as s from t where t match 'deploy OR café' order by rowid));
-- recall_bm25_text under trigram finds a phrase where the row's text, folded as the
-- tokenizer folds each character, holds the phrase folded: capitals, accents composed and
-- combining, other scripts, characters past the BMP; a text holding a NUL, or bytes that
-- are not UTF-8, is tokenized. bm25()'s to the bit, over the rows of a query and for rows
-- found by their rowid alone; case-sensitive too; every row of each query matches.
create virtual table tt using fts5(title, body, tokenize = 'trigram');
insert into tt(title, body) values ('ÉCOLE Straße', 'école ecole ÉCOLE école'), ('KELVIN ' || char(8490) || 'elvin 日本語の本', char(128512) || ' emoji ' || char(128512) || ' straße STRASSE'), ('cafe' || char(769) || ' CAFÉ café', 'Ωmega ωMEGA ΣΊΣΥΦΟΣ σίσυφος'), ('ab' || char(0) || 'école école', 'straße'), (cast(x'e9636f6c65206b656c76696e' as text), 'école'), ('nothing here', 'at all');
create table tt_hits as select (select count(*) from tt where tt match '"école"') as ecole, (select count(*) from tt where tt match '"straße"') as strasse, (select count(*) from tt where tt match '"kelvin"') as kelvin, (select count(*) from tt where tt match '"日本語"') as nihongo, (select count(*) from tt where tt match '"' || char(128512) || ' e"') as emoji, (select count(*) from tt where tt match '"ωmega"') as omega, (select count(*) from tt where tt match '"café"') as cafe;
select 'bm25_43', (select count(*) from tt, tt_hits as h where tt match '"école" OR "straße" OR "kelvin" OR "日本語" OR "' || char(128512) || ' e" OR "ωmega" OR "café"' and recall_bm25_text(tt, json_array(json_array('école', h.ecole), json_array('straße', h.strasse), json_array('kelvin', h.kelvin), json_array('日本語', h.nihongo), json_array(char(128512) || ' e', h.emoji), json_array('ωmega', h.omega), json_array('café', h.cafe)), 1.5, 0.5) = bm25(tt, 1.5, 0.5)) = 5 and (select count(*) from tt where tt match '"école" OR "straße" OR "kelvin" OR "日本語" OR "' || char(128512) || ' e" OR "ωmega" OR "café"') = 5;
select 'bm25_44', (select group_concat(id || ':' || s, ',') from (select m.rowid as id, recall_bm25_text(tt, json_array(json_array('ÉCOLE', h.ecole), json_array('STRAßE', h.strasse), json_array('Ωmega', h.omega)), 2.0, 1.0) as s from (select rowid from tt where tt match '"école" OR "straße" OR "ωmega"') as m join tt on tt.rowid = m.rowid, tt_hits as h order by m.rowid)) = (select group_concat(id || ':' || s, ',') from (select rowid as id, bm25(tt, 2.0, 1.0) as s from tt where tt match '"école" OR "straße" OR "ωmega"' order by rowid)) and (select count(*) from tt where tt match '"école" OR "straße" OR "ωmega"') = 5;
create virtual table tc using fts5(body, tokenize = 'trigram case_sensitive 1');
insert into tc(body) values ('École ÉCOLE école'), ('STRASSE Straße straße'), ('école'), ('none');
select 'bm25_45', (select count(*) from tc where tc match '"école" OR "Straße"' and recall_bm25_text(tc, json_array(json_array('école', (select count(*) from tc where tc match '"école"')), json_array('Straße', (select count(*) from tc where tc match '"Straße"')))) = bm25(tc)) = 3 and (select count(*) from tc where tc match '"école" OR "Straße"') = 3;
