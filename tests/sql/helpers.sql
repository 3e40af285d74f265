-- recall_rrf, recall_convex, recall_period, recall_limit, recall_fold, recall_folds, recall_stopwords, recall_version, recall_debug, recall_in_every.
select 'rrf_01', recall_rrf(1) = 1.0 / 61;
select 'rrf_02', recall_rrf(10, 0, 2) = 0.2;
select 'rrf_03', recall_rrf(3, 60) = 1.0 / 63;
select 'rrf_04', recall_rrf(NULL) is null;
select 'rrf_05', recall_rrf(2, NULL, NULL) = 1.0 / 62;
-- Convex: literal 6 of 8 (0.75), similarity 0.5 of 0.2..0.6 (0.75), share 0.2: 0.75.
select 'convex_01', abs(recall_convex(6, 8, 0.5, 0.2, 0.6, 0.2) - 0.75) < 1e-12;
-- Literal 2 of 8 (0.25), the nearest (1): 0.8 * 0.25 + 0.2 * 1 = 0.4.
select 'convex_02', abs(recall_convex(2, 8, 0.6, 0.2, 0.6, 0.2) - 0.4) < 1e-12;
-- Outside the vector list (NULL): the literal part alone, 0.8.
select 'convex_03', abs(recall_convex(8, 8, NULL, 0.2, 0.6, 0.2) - 0.8) < 1e-12;
-- Outside the literal list: 0.2 * (0.3 - 0.2) / 0.4 = 0.05.
select 'convex_04', abs(recall_convex(NULL, 8, 0.3, 0.2, 0.6, 0.2) - 0.05) < 1e-12;
-- Below the list's least: nothing of it; share 0 and 1 give one part alone.
select 'convex_05', recall_convex(NULL, 8, 0.1, 0.2, 0.6, 0.2) = 0.0;
select 'convex_06', recall_convex(6, 8, 0.5, 0.2, 0.6, 0) = 0.75;
select 'convex_07', abs(recall_convex(6, 8, 0.4, 0.2, 0.6, 1) - 0.5) < 1e-12;
-- Periods: a month with its year, a day, ISO, several dates, a bare year after "in".
select 'period_01', json_extract(recall_period('What did John do in August 2023?'), '$.since') = '2023-08-01T00:00:00Z';
select 'period_02', json_extract(recall_period('What did John do in August 2023?'), '$.until') = '2023-09-01T00:00:00Z';
select 'period_03', recall_period('on May 7, 2023') = '{"since":"2023-05-07T00:00:00Z","until":"2023-05-08T00:00:00Z"}';
select 'period_04', recall_period('the 2023-12-31 deploy') = '{"since":"2023-12-31T00:00:00Z","until":"2024-01-01T00:00:00Z"}';
select 'period_05', recall_period('between August 11 and August 15, 2023') = '{"since":"2023-08-11T00:00:00Z","until":"2023-08-16T00:00:00Z"}';
select 'period_06', recall_period('during 2022') = '{"since":"2022-01-01T00:00:00Z","until":"2023-01-01T00:00:00Z"}';
-- No year, a number that is no year, an impossible day, NULL: no period.
select 'period_07', recall_period('what may we ship in May?') is null;
select 'period_08', recall_period('error 2022 on port 2023') is null;
select 'period_09', recall_period('February 30, 2023') is null;
select 'period_10', recall_period(NULL) is null;
-- Stored times compare as text: the period bounds an item's occurred_at.
select 'period_11', '2023-08-31T23:59:59Z' < json_extract(recall_period('in Aug 2023'), '$.until');
select 'period_12', not ('2023-09-01T00:00:00Z' < json_extract(recall_period('in Aug 2023'), '$.until'));
-- "of" before the year, a day range, a range across the new year, a number after "after".
select 'period_13', recall_period('in August of 2023') = recall_period('in August 2023');
select 'period_14', recall_period('August 11-15, 2023') = '{"since":"2023-08-11T00:00:00Z","until":"2023-08-16T00:00:00Z"}';
select 'period_15', recall_period('December 20 to January 5, 2024') = '{"since":"2023-12-20T00:00:00Z","until":"2024-01-06T00:00:00Z"}';
select 'period_16', recall_period('the timeout after 2000 ms') is null;
select 'limit_01', recall_limit(NULL, 10, 50) = 10;
select 'limit_02', recall_limit(0, 10, 50) = 10;
select 'limit_03', recall_limit(-5, 10, 50) = 10;
select 'limit_04', recall_limit(7, 10, 50) = 7;
select 'limit_05', recall_limit(51, 10, 50) = 50;
select 'limit_06', recall_limit(50, 10, 50) = 50;
select 'limit_07', recall_limit('12', 10, 50) = 12;
select 'limit_08', recall_limit(5, NULL, 50) is null;
select 'limit_09', typeof(recall_limit(5, 10, 50)) = 'integer';
select 'fold_01', recall_fold('Canción ÑANDÚ Crème Brûlée') = 'cancion nandu creme brulee';
select 'fold_02', recall_fold(NULL) is null;
select 'fold_03', recall_fold('Plain ASCII 42') = 'plain ascii 42';
select 'fold_04', recall_fold('東京 Ωmega') = '東京 ωmega';
select 'stopwords_01', json_valid(recall_stopwords());
select 'stopwords_02', (select count(*) from json_each(recall_stopwords()) where value in ('the', 'when', 'please', 'para', 'cuando', 'quiero')) = 6;
select 'stopwords_03', (select count(*) from json_each(recall_stopwords()) where value != recall_fold(value)) = 0;
select 'stopwords_04', (select count(*) from json_each(recall_stopwords()) where value in ('sunrise', 'analytics', 'migration')) = 0;
select 'version_01', recall_version() glob 'v[0-9]*.[0-9]*.[0-9]*';
select 'debug_01', recall_debug() like 'Version: ' || recall_version() || '%';
select 'debug_02', instr(recall_debug(), 'SQLite: ' || sqlite_version()) > 0;
-- Folding removes accents of Latin letters only, as FTS5's remove_diacritics does: kana
-- voicing marks, Indic vowel signs, Thai tone marks, Greek and Cyrillic accents stay.
select 'fold_05', recall_fold('ダウンロード ガイド') = 'ダウンロード ガイド';
select 'fold_06', recall_fold('डेटाबेस') = 'डेटाबेस';
select 'fold_07', recall_fold('ฐานข้อมูล') = 'ฐานข้อมูล';
select 'fold_08', recall_fold('Crème Brûlée Tiếng Việt Ǖ Łódź') = 'creme brulee tieng viet u łodz';
select 'fold_09', recall_fold('Αθήνα ΟΔΟΣ οδος Ёлка Йод') = 'αθήνα οδοσ οδοσ ёлка йод';
select 'fold_10', recall_fold('Cancio' || char(769) || 'n ' || char(12479, 12441)) = 'cancion ' || char(12479, 12441);
-- The same words through FTS5's own folding give the same terms.
create virtual table fold_words using fts5(body, tokenize = 'unicode61 remove_diacritics 2');
create virtual table fold_words_v using fts5vocab(fold_words, row);
insert into fold_words(body) values ('Crème Brûlée Tiếng Việt Ǖnico Łódź Straße Αθήνα ΟΔΟΣ οδος Ёлка Йод İstanbul ılık');
select 'fold_11', (select group_concat(term, ' ') from (select term from fold_words_v order by term)) = (select group_concat(value, ' ') from (select distinct value from json_each('["' || replace(recall_fold((select body from fold_words)), ' ', '","') || '"]') order by value));
select 'folds_01', recall_folds('trigram remove_diacritics 1') = 1 and recall_folds('unicode61') = 1 and recall_folds('recall') = 1 and recall_folds('porter unicode61 remove_diacritics 2') = 1;
select 'folds_02', recall_folds('trigram') = 0 and recall_folds('ascii') = 0 and recall_folds('unicode61 remove_diacritics 0') = 0 and recall_folds('trigram remove_diacritics 1 case_sensitive 1') = 0;
select 'folds_03', recall_folds(NULL) is null;
-- recall_in_every: the rowids in every list, ascending; here the items of an FTS5 table
-- holding every word, against its own query of them.
select 'in_every_01', recall_in_every('[[5, 1, 3, 3], [3, 9, 5, 1], [1, 5, 7, 3]]') = '[1,3,5]' and recall_in_every('[[2], []]') = '[]' and recall_in_every('[]') = '[]';
create virtual table e using fts5(body);
insert into e(body) with recursive n(i) as (select 1 union all select i + 1 from n where i < 60) select iif(i % 2 = 0, 'even ', '') || iif(i % 3 = 0, 'third ', '') || iif(i % 5 = 0, 'fifth', '') from n;
select 'in_every_02', recall_in_every(json_array(json((select json_group_array(rowid) from e where e match 'even')), json((select json_group_array(rowid) from e where e match 'third')), json((select json_group_array(rowid) from e where e match 'fifth')))) = (select json_group_array(rowid) from e where e match 'even AND third AND fifth') and (select count(*) from e where e match 'even AND third AND fifth') = 2;
select 'in_every_03', recall_in_every(null) is null;
select 'in_every_04', recall_in_every('[[1], 2]'); -- error: recall_in_every: lists must be a JSON array of JSON arrays of rowids (integers): invalid type: integer `2`, expected a sequence at line 1 column 7
