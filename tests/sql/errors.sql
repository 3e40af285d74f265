-- Wrong types and values: each line must fail with an error containing the text after "-- error:".
select 'err_01', recall_decay(0, 0, -3); -- error: recall_decay: half_life_days must be > 0, got -3
select 'err_02', recall_decay(0, 0, 0); -- error: recall_decay: half_life_days must be > 0, got 0
select 'err_03', recall_score(-1, '2025-01-01', '2025-01-01', 90, 1.5); -- error: recall_score: recency_weight must be between 0 and 1, got 1.5
select 'err_04', recall_score(-1, '2025-01-01', '2025-01-01', 0); -- error: recall_score: half_life_days must be > 0, got 0
select 'err_05', recall_score(-1, '2025-01-01', '2025-01-01', 90, -0.1); -- error: recall_score: recency_weight must be between 0 and 1, got -0.1
select 'err_06', recall_rrf(0); -- error: recall_rrf: rank must be >= 1 (ranks are 1-based), got 0
select 'err_07', recall_rrf(1, -1); -- error: recall_rrf: k must be >= 0, got -1
select 'err_08', recall_age_days('yesterday', '2025-01-01'); -- error: recall_age_days: occurred_at must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got 'yesterday'
select 'err_09', recall_age_days('2025-01-01', '2025-13-01'); -- error: recall_age_days: now must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got '2025-13-01'
select 'err_10', recall_age_days(x'01', 0); -- error: recall_age_days: occurred_at must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got a 1-byte BLOB
select 'err_11', recall_match(x'0102'); -- error: recall_match: text must be TEXT, got a 2-byte BLOB
select 'err_12', recall_match('abc', -1); -- error: recall_match: min_chars must be >= 0 or a tokenizer spec, got -1
select 'err_13', recall_match('abc', 3, 2); -- error: recall_match: drop_stopwords must be 0 or 1, got 2
select 'err_14', recall_terms('abc', x'01'); -- error: recall_terms: min_chars must be an integer, got a 1-byte BLOB
select 'err_15', recall_score(x'00', '2025-01-01'); -- error: recall_score: bm25 must be a finite number, got a 1-byte BLOB
select 'err_16', recall_score('abc', '2025-01-01'); -- error: recall_score: bm25 must be a finite number, got 'abc'
select 'err_17', recall_score(-1, 'last week'); -- error: recall_score: occurred_at must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got 'last week'
select 'err_18', recall_score(-1e999, '2025-01-01'); -- error: recall_score: bm25 must be a finite number, got -inf
select 'err_19', recall_decay(0, 0, 1e999); -- error: recall_decay: half_life_days must be a finite number, got inf
select 'err_20', recall_limit('ten', 10, 50); -- error: recall_limit: requested must be an integer, got 'ten'
select 'err_21', recall_limit(5, 10, 0); -- error: recall_limit: max must be >= 1, got 0
select 'err_22', recall_limit(2.5, 10, 50); -- error: recall_limit: requested must be an integer, got 2.5
select 'err_23', recall_prompt_terms('abc', -1); -- error: recall_prompt_terms: max_terms must be >= 0, got -1
select 'err_24', recall_overlap(x'01', 'a'); -- error: recall_overlap: prompt must be TEXT, got a 1-byte BLOB
select 'err_25', recall_related('a', x'00'); -- error: recall_related: title must be TEXT, got a 1-byte BLOB
select 'err_26', recall_fold(x'01'); -- error: recall_fold: text must be TEXT, got a 1-byte BLOB
select 'err_27', recall_age_days('2025-01-01' || char(0) || 'x', 0); -- error: recall_age_days: occurred_at must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got '2025-01-01\0x'
select 'err_28', recall_match('abc', 1, 'yes'); -- error: recall_match: drop_stopwords must be 0 or 1, got 'yes'
select 'err_29', recall_time('soon'); -- error: recall_time: value must be an ISO-8601 time (2025-03-04T05:06:07Z, 2025-03-04) or Unix seconds, got 'soon'
select 'err_30', recall_time(1e15); -- error: recall_time: value is out of range (years 1 to 9999), got 1000000000000000
select 'err_31', recall_column_filter('a-b', 'x'); -- error: recall_column_filter: column must be a plain column name (letters, digits, _), got 'a-b'
select 'err_32', recall_column_filter('project', x'01'); -- error: recall_column_filter: value must be TEXT, got a 1-byte BLOB
select 'err_33', recall_time(-1e308); -- error: recall_time: value is out of range (years 1 to 9999), got -1e308
select 'err_34', recall_time('0000-01-01'); -- error: recall_time: value is out of range (years 1 to 9999), got '0000-01-01'
select 'err_35', recall_time('+10000-01-01T00:00:00Z'); -- error: recall_time: value is out of range (years 1 to 9999), got '+10000-01-01T00:00:00Z'
select 'err_36', recall_time(253402300800); -- error: recall_time: value is out of range (years 1 to 9999), got 253402300800
select 'err_37', recall_time(-62135596800.5); -- error: recall_time: value is out of range (years 1 to 9999), got -62135596800.5
select 'err_38', recall_time('0001-01-01T00:30:00+01:00'); -- error: recall_time: value is out of range (years 1 to 9999), got '0001-01-01T00:30:00+01:00'
select 'err_39', recall_decay(0, 0, -1e308); -- error: recall_decay: half_life_days must be > 0, got -1e308
select 'err_40', recall_score(-1, '2025-01-01', '2025-01-01', 90, 1e300); -- error: recall_score: recency_weight must be between 0 and 1, got 1e300
select 'err_41', recall_rrf(-1e200); -- error: recall_rrf: rank must be >= 1 (ranks are 1-based), got -1e200
select 'err_42', recall_age_days('0000-06-01', 0); -- error: recall_age_days: occurred_at is out of range (years 1 to 9999), got '0000-06-01'
select 'err_43', recall_idf(-1, 5); -- error: recall_idf: with_word must be >= 0, got -1
select 'err_44', recall_idf(1, x'01'); -- error: recall_idf: items must be an integer, got a 1-byte BLOB
select 'err_45', recall_idf(1.5, 10); -- error: recall_idf: with_word must be an integer, got 1.5
select 'err_46', recall_convex(1, 1, 0.5, 0, 1, 1.5); -- error: recall_convex: share must be between 0 and 1, got 1.5
select 'err_47', recall_convex(1, 1, 'near', 0, 1, 0.5); -- error: recall_convex: similarity must be a finite number, got 'near'
select 'err_48', recall_period(x'41'); -- error: recall_period: text must be TEXT, got a 1-byte BLOB
select 'err_49', recall_overlap_terms('deploy analytics', 'deploy', x'01'); -- error: recall_overlap_terms: summary must be TEXT, got a 1-byte BLOB
