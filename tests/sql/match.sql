-- recall_match: safe MATCH construction (docs/functions.md). One check per line; each must print 1.
select 'match_01', recall_match('analytics shop "consent banner"') = '"analytics" OR "shop" OR "consent banner"';
select 'match_02', recall_match('When did Melanie paint a sunrise?') = '"When" OR "did" OR "Melanie" OR "paint" OR "sunrise"';
select 'match_03', recall_match('When did Melanie paint a sunrise?', 3, 1) = '"Melanie" OR "paint" OR "sunrise"';
select 'match_04', recall_match('NEAR(a b) AND c* -x ^y col:z OR') = '"NEAR(a" OR "AND" OR "col:z"';
select 'match_05', recall_match('NEAR(a b) AND c* -x ^y col:z OR', 1) = '"NEAR(a" OR "b" OR "AND" OR "c*" OR "-x" OR "^y" OR "col:z" OR "OR"';
select 'match_06', recall_match('a b') = '""';
select 'match_07', recall_match('') = '""';
select 'match_08', recall_match(NULL) is null;
select 'match_09', recall_match('The Who', 3, 1) = '"The" OR "Who"';
select 'match_10', recall_match('"consent banner') = '"consent" OR "banner"';
select 'match_11', recall_match('foo"bar') = '"foo""bar"';
select 'match_12', recall_match('"  consent   banner "') = '"consent banner"';
select 'match_13', recall_match('"consent' || char(9, 10, 160, 12288) || 'banner"') = '"consent banner"';
select 'match_14', recall_match('été éé ñu') = '"été"';
select 'match_15', recall_match('Foo foo FOO bar BAR') = '"Foo" OR "bar"';
select 'match_16', recall_match('(¿sunrise?!). «hola» “quoted”') = '"sunrise" OR "hola" OR "quoted"';
select 'match_17', recall_match('foo-bar test:consent node.js it''s c++ C# -v .env $HOME', 1) = '"foo-bar" OR "test:consent" OR "node.js" OR "it''s" OR "c++" OR "C#" OR "-v" OR ".env" OR "$HOME"';
select 'match_18', recall_match('ab abc', 'unicode61 remove_diacritics 2') = '"ab" OR "abc"';
select 'match_19', recall_match('ab abc', 'trigram remove_diacritics 1') = '"abc"';
select 'match_20', recall_match('ab abc', 'trigram') = '"abc"';
select 'match_21', recall_match('ab abc', '2') = '"ab" OR "abc"';
select 'match_22', recall_match('ab abc', 2.0) = '"ab" OR "abc"';
select 'match_23', recall_match('abc' || char(0) || 'def') = '"abc" OR "def"';
select 'match_24', recall_match(12345) = '"12345"';
select 'match_25', recall_match('what "the who"', 3, 1) = '"the who"';
select 'match_26', recall_match('the analytics', 3, 0) = '"the" OR "analytics"';
select 'match_27', recall_match('CUÁNDO arreglé', 3, 1) = '"arreglé"';
select 'match_28', recall_match('abc', NULL, NULL) = '"abc"';
select 'match_29', recall_match('x y', 1) = '"x" OR "y"';
select 'match_30', recall_match('"a b" "ab"', 3) = '"a b"';
select 'match_31', recall_match('"""quoted"""') = '"quoted"';
select 'match_32', recall_match('sunrise?', 1) = '"sunrise"';
select 'match_33', recall_match('"sunrise?"', 1) = '"sunrise?"';
-- 100 distinct words: only the first 64 are kept, in order.
select 'match_34', (with recursive n(i) as (select 0 union all select i + 1 from n where i < 99) select recall_match(group_concat(printf('w%03d', i), ' '), 1) from n) = (with recursive n(i) as (select 0 union all select i + 1 from n where i < 63) select group_concat(printf('"w%03d"', i), ' OR ') from n);
-- Every stop word is dropped in drop_stopwords mode while another word remains.
select 'match_35', (select count(*) from json_each(recall_stopwords()) where recall_match(value || ' zebra', 1, 1) != '"zebra"') = 0;
-- recall_column_filter: the project filter that search, later and related run inside FTS5.
select 'filter_01', recall_column_filter('project', 'shop') = ' AND project : "shop"';
select 'filter_02', recall_column_filter('project', 'ui', 'trigram remove_diacritics 1') = '';
select 'filter_03', recall_column_filter('project', 'ui', 'unicode61 remove_diacritics 2') = ' AND project : "ui"';
select 'filter_04', recall_column_filter('project', NULL) = '';
select 'filter_05', recall_column_filter('project', 'a"b', 'unicode61') = ' AND project : "a""b"';
select 'filter_06', recall_column_filter(NULL, 'x') is null;
select 'filter_07', recall_column_filter('project', '@@@', 'unicode61') = '';
select 'filter_08', recall_column_filter('project', 'Canción', 'unicode61') = ' AND project : "Canción"';
-- Quotes of every language trim from either end; brackets and full-width punctuation too.
select 'match_36', recall_match('„Datenbank“ ‚Sperre‘ »Fehler« ”Hej” ‹Fehl›', 1) = '"Datenbank" OR "Sperre" OR "Fehler" OR "Hej" OR "Fehl"';
select 'match_37', recall_match('「東京都」 『設定』 〈ガイド〉 《手册》 （問題） ［配置］ ｛値｝ ＂引用＂ ＇単語＇ 【注意】', 1) = '"東京都" OR "設定" OR "ガイド" OR "手册" OR "問題" OR "配置" OR "値" OR "引用" OR "単語" OR "注意"';
select 'match_38', recall_match('本当？ 完了！ 東京， 終了。 上記： 以上； 次、', 1) = '"本当" OR "完了" OR "東京" OR "終了" OR "上記" OR "以上" OR "次"';
-- Under a trigram tokenizer spec, words stand as their stems (docs/functions.md); not under others, nor a bare length.
select 'match_39', recall_match('When did Melanie paint sunrises?', 'trigram', 1) = '"melani" OR "paint" OR "sunris"';
select 'match_40', recall_match('Caroline''s painting groups', 'trigram remove_diacritics 1', 1) = '"carolin" OR "paint" OR "group"';
select 'match_41', recall_match('painting painted "painted walls"', 'trigram', 1) = '"paint" OR "painted walls"';
select 'match_42', recall_match('where others swimming', 'trigram', 1) = '"swim"';
select 'match_43', recall_match('where others swimming', 'trigram', 0) = '"wher" OR "other" OR "swim"';
select 'match_44', recall_match('getUsers parse_errors ENOENT résumés 東京都 kids', 'trigram', 1) = '"getUsers" OR "parse_errors" OR "ENOENT" OR "résumés" OR "東京都" OR "kids"';
select 'match_45', recall_match('painting groups', 'porter unicode61', 1) = '"painting" OR "groups"';
select 'match_46', recall_match('painting groups', 3, 1) = '"painting" OR "groups"';
select 'match_47', recall_match('painting groups') = '"painting" OR "groups"';
select 'match_48', recall_terms('Caroline''s paintings', 'trigram', 1) = '["carolin","paint"]';
