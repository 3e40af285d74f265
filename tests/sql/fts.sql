-- recall_match against real FTS5 tables (tokenizers available from SQLite 3.40 on).
create virtual table tri using fts5(body, tokenize = 'trigram');
create virtual table uni using fts5(body, tokenize = 'unicode61 remove_diacritics 2');
insert into tri(body) values ('The consent banner migration'), ('node.js and c++ notes'), ('When did Melanie paint a sunrise'), ('NEAR(a b) AND operators');
insert into uni(body) select body from tri;
select 'fts_01', (select count(*) from tri where tri match recall_match('NEAR(a b) AND c* -x ^y col:z OR')) = 2;
select 'fts_02', (select count(*) from tri where tri match recall_match('a b')) = 0;
select 'fts_03', (select count(*) from tri where tri match recall_match('sunrise?')) = 1;
select 'fts_04', (select count(*) from tri where tri match '"sunrise?"') = 0;
select 'fts_05', (select count(*) from tri where tri match recall_match('"consent banner"')) = 1;
select 'fts_06', (select count(*) from tri where tri match recall_match('"banner consent"')) = 0;
select 'fts_07', (select count(*) from uni where uni match recall_match('c++', 'unicode61 remove_diacritics 2')) = 1;
select 'fts_08', (select count(*) from uni where uni match recall_match('" OR "', 1)) = 0;
select 'fts_09', (select count(*) from uni where uni match recall_match('NEAR(a b) AND c* -x ^y col:z OR', 1)) = 2;
select 'fts_10', (select count(*) from uni where uni match recall_match('body:sunrise', 1)) = 0;
select 'fts_11', (select count(*) from uni where uni match recall_match('Mélanie', 1)) = 1;
select 'fts_12', (select count(*) from tri where tri match recall_match('"""')) = 0;
create virtual table proj using fts5(body, project, tokenize = 'trigram');
insert into proj(body, project) values ('deploy notes', 'shop'), ('deploy notes', 'workshop'), ('deploy notes', 'api');
select 'fts_13', (select count(*) from proj where proj match ('(' || recall_match('deploy') || ')' || recall_column_filter('project', 'shop', 'trigram'))) = 2;
select 'fts_14', (select count(*) from proj where proj match ('(' || recall_match('deploy') || ')' || recall_column_filter('project', 'api', 'trigram'))) = 1;
select 'fts_15', (select count(*) from proj where proj match ('(' || recall_match('deploy') || ')' || recall_column_filter('project', 'x', 'trigram'))) = 3;
select 'fts_16', (select count(*) from tri where tri match recall_match('„consent“ 「sunrise」')) = 2;
-- A stem finds every inflection in a trigram index: "painted" finds the row with "paint"; the word as written would not.
insert into tri(body) values ('she painted the fence'), ('two painters');
select 'fts_17', (select count(*) from tri where tri match recall_match('painting', 'trigram')) = 3;
select 'fts_18', (select count(*) from tri where tri match recall_match('painting', 3)) = 0;
select 'fts_19', (select count(*) from tri where tri match recall_match('"painting"', 'trigram')) = 0;
