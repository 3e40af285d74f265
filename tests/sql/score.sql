-- recall_score: relevance * ((1 - weight) + weight * decay), relevance = -bm25.
select 'score_01', recall_score(-10, '2025-04-01', '2025-04-01') = 10.0;
select 'score_02', abs(recall_score(-10, '2025-01-01', '2025-04-01') - 8.5) < 1e-9;
select 'score_03', abs(recall_score(-10, NULL, '2025-04-01') - 7.0) < 1e-9;
select 'score_04', recall_score(-4.25, '2000-01-01', '2025-04-01', 90, 0) = 4.25;
select 'score_05', recall_score(-8, '2025-03-02', '2025-04-01', 30, 1) = 4.0;
select 'score_06', recall_score(0, '1990-01-01', '2025-04-01') = 0.0;
select 'score_07', recall_score(0, '2025-04-01', '2025-04-01') = 0.0;
select 'score_08', recall_score(0, NULL, '2025-04-01') = 0.0;
-- An old item beats a brand-new one once its relevance exceeds 1/0.7 (about 1.4286).
select 'score_09', recall_score(-1.43, '2000-01-01', '2025-01-01') > recall_score(-1.0, '2025-01-01', '2025-01-01');
select 'score_10', recall_score(-1.42, '2000-01-01', '2025-01-01') < recall_score(-1.0, '2025-01-01', '2025-01-01');
-- The two-argument form uses the current time.
select 'score_11', recall_score(-10, strftime('%Y-%m-%dT%H:%M:%SZ', 'now')) between 9.999 and 10.0;
select 'score_12', abs(recall_score(-10, NULL) - 7.0) < 1e-9;
select 'score_13', recall_score(-10, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), NULL) between 9.999 and 10.0;
select 'score_14', abs(recall_score(-10, '2025-01-01', '2025-04-01', NULL, NULL) - 8.5) < 1e-9;
select 'score_15', recall_score(NULL, '2025-01-01', '2025-04-01') is null;
select 'score_16', abs(recall_score(-10, 0, 86400 * 90, 90, 0.5) - 7.5) < 1e-9;
select 'score_17', recall_score(-2, '2030-01-01', '2025-01-01') = 2.0;
select 'score_18', recall_score('-3', '2025-04-01', '2025-04-01') = 3.0;
