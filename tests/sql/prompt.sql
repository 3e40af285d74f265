-- recall_prompt_terms, recall_overlap, recall_overlap_terms, recall_related, recall_idf: the
-- first-prompt rule.
select 'prompt_01', recall_prompt_terms('Please help me fix the Analytics script on the shop!') = '["analytics","script","shop"]';
select 'prompt_02', recall_prompt_terms('¿Cuándo arreglé la migración del banner?') = '["arregle","migracion","banner"]';
select 'prompt_03', recall_prompt_terms('alpha beta gamma delta', 2) = '["alpha","beta"]';
select 'prompt_04', (with recursive n(i) as (select 0 union all select i + 1 from n where i < 29) select json_array_length(recall_prompt_terms(group_concat('word' || i, ' '))) from n) = 20;
select 'prompt_05', recall_prompt_terms('go to db') = '[]';
select 'prompt_06', recall_prompt_terms(NULL) is null;
select 'prompt_07', recall_prompt_terms('node.js foo-bar it''s Niño ÜBER niño') = '["node","foo","bar","nino","uber"]';
select 'prompt_08', recall_prompt_terms('alpha beta', 0) = '[]';
select 'prompt_09', recall_prompt_terms('Quiero que me ayudes con los tests para el deploy') = '["ayudes","tests","deploy"]';
select 'overlap_01', recall_overlap('fix the consent banner migration', 'Consent Banner', NULL) = 2;
select 'overlap_02', recall_overlap('fix the consent banner migration', 'migrations', 'consents') = 0;
select 'overlap_03', recall_overlap('migración del banner', 'Migracion', 'BANNER') = 2;
select 'overlap_04', recall_overlap(NULL, 'x', 'y') is null;
select 'overlap_05', recall_overlap('deploy analytics', NULL, NULL) = 0;
select 'overlap_06', recall_overlap('deploy analytics script', 'deploy-analytics.sh') = 2;
select 'overlap_07', recall_overlap('deploy analytics script', 'redeploy the analyticsjs') = 0;
select 'overlap_terms_01', recall_overlap_terms('Fix the consent banner MIGRATION of the shop', 'The migration', 'a shop banner') = '["banner","migration","shop"]';
select 'overlap_terms_02', recall_overlap_terms('fix the consent banner migration', 'migrations', 'consents') = '[]';
select 'overlap_terms_03', recall_overlap_terms('migración del banner', 'Migracion') = '["migracion"]' and recall_overlap_terms('migración del banner', NULL, 'BANNER') = '["banner"]';
select 'overlap_terms_04', recall_overlap_terms(NULL, 'x', 'y') is null;
select 'overlap_terms_05', (with t(title, summary) as (values ('deploy-analytics.sh', NULL), ('Analytics', 'redeploy the script'), ('', ''), ('SCRIPT deploy', 'analytics')) select count(*) = 4 and total(json_array_length(recall_overlap_terms('deploy the analytics script', title, summary)) = recall_overlap('deploy the analytics script', title, summary)) = 4 from t);
select 'overlap_terms_06', (select group_concat(value, ' ') from json_each(recall_overlap_terms('deploy the analytics script', 'script; analytics', 'deploy'))) = (select group_concat(value, ' ') from json_each(recall_prompt_terms('deploy the analytics script')) where recall_overlap(value, 'script; analytics', 'deploy') = 1);
select 'related_01', recall_related('deploy the analytics script', 'analytics', NULL) = 0;
select 'related_02', recall_related('deploy the analytics script', 'Analytics', 'the script') = 1;
select 'related_03', recall_related('deploy the analytics script', 'Deploy ANALYTICS') = 1;
select 'related_04', recall_related(NULL, 'a', 'b') is null;
select 'related_05', recall_related('the and for', 'the and for') = 0;
-- Scripts whose marks are letters keep them in prompt terms.
select 'prompt_10', recall_prompt_terms('ダウンロード ガイド 問題') = '["ダウンロード","ガイド"]';
select 'prompt_11', recall_prompt_terms('डेटाबेस माइग्रेशन') = '["डेटाबेस","माइग्रेशन"]';
select 'prompt_12', recall_prompt_terms('ฐานข้อมูล สำรอง') = '["ฐานข้อมูล","สำรอง"]';
select 'prompt_13', recall_prompt_terms('Crème Brûlée, Tiếng Việt') = '["creme","brulee","tieng","viet"]';
select 'prompt_14', recall_prompt_terms('Αθήνα ΟΔΟΣ Ёлка') = '["αθήνα","οδοσ","ёлка"]';
-- The related rule end to end: the prompt's terms find the title in FTS5 and relate to it.
create virtual table related_uni using fts5(title, tokenize = 'unicode61 remove_diacritics 2');
insert into related_uni(rowid, title) values (1, 'ダウンロード ガイド'), (2, 'डेटाबेस माइग्रेशन'), (3, 'ฐานข้อมูล ล้มเหลว'), (4, 'Crème brûlée'), (5, 'Αθήνα Θεσσαλονίκη'), (6, 'Ёлка и йогурт');
select 'related_06', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('ダウンロード ガイド 問題'))), 1) and recall_related('ダウンロード ガイド 問題', title) = 1) = '1';
select 'related_07', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('डेटाबेस माइग्रेशन में त्रुटि'))), 1) and recall_related('डेटाबेस माइग्रेशन में त्रुटि', title) = 1) = '2';
select 'related_08', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('ฐานข้อมูล ล้มเหลว อีกครั้ง'))), 1) and recall_related('ฐานข้อมูล ล้มเหลว อีกครั้ง', title) = 1) = '3';
select 'related_09', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('CREME BRULEE recipe'))), 1) and recall_related('CREME BRULEE recipe', title) = 1) = '4';
select 'related_10', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('ΑΘΉΝΑ θεσσαλονίκη'))), 1) and recall_related('ΑΘΉΝΑ θεσσαλονίκη', title) = 1) = '5';
select 'related_11', (select group_concat(rowid) from related_uni where related_uni match recall_match((select group_concat(value, ' ') from json_each(recall_prompt_terms('ёлка ЙОГУРТ'))), 1) and recall_related('ёлка ЙОГУРТ', title) = 1) = '6';
-- recall_idf: ln(items / with_word) / ln(items), from 1 (one item) to 0 (every item).
select 'idf_01', recall_idf(1, 1000) = 1.0;
select 'idf_02', recall_idf(1000, 1000) = 0.0;
select 'idf_03', abs(recall_idf(100, 10000) - 0.5) < 1e-12;
select 'idf_04', abs(recall_idf(10, 1000) - 2.0 / 3) < 1e-12;
select 'idf_05', abs(recall_idf(100, 10000) * 2 - recall_idf(1, 10000)) < 1e-12;
select 'idf_06', recall_idf(0, 50) = 1.0;
select 'idf_07', recall_idf(80, 50) = 0.0;
select 'idf_08', recall_idf(1, 1) = 1.0 and recall_idf(0, 0) = 1.0;
select 'idf_09', recall_idf(NULL, 5) is null and recall_idf(5, NULL) is null;
select 'idf_10', typeof(recall_idf(3, 7)) = 'real' and recall_idf('3', 7.0) = recall_idf(3, 7);
