-- recall_source_allowed: the access rule of every query (SQLite GLOB semantics).
select 'allow_01', recall_source_allowed('agent-a', NULL) = 1;
select 'allow_02', recall_source_allowed('agent-a', '["agent-*"]') = 1;
select 'allow_03', recall_source_allowed('human', '["agent-*"]') = 0;
select 'allow_04', recall_source_allowed('human', '["agent-*", "hu?an"]') = 1;
select 'allow_05', recall_source_allowed('Agent-a', '["agent-*"]') = 0;
select 'allow_06', recall_source_allowed('agent-a', '[]') = 0;
select 'allow_07', recall_source_allowed('human', '["[^a]*"]') = 1;
select 'allow_08', recall_source_allowed('agent', '["[^a]*"]') = 0;
select 'allow_09', recall_source_allowed('agent', '["[!a]*"]') = 1;
select 'allow_10', recall_source_allowed('b', '["[a-c]"]') = 1;
select 'allow_11', recall_source_allowed('a', '["[ab"]') = 0;
select 'allow_12', recall_source_allowed('école', '["é*"]') = 1;
select 'allow_13', recall_source_allowed(NULL, '["*"]') is null;
select 'allow_14', recall_source_allowed('x', NULL) = ('x' glob '*');
select 'allow_15', recall_source_allowed('a]b', '["a[]]b"]') = ('a]b' glob 'a[]]b');
select 'allow_err_01', recall_source_allowed('x', 'agent-*'); -- error: recall_source_allowed: sources must be a JSON array of glob patterns
select 'allow_err_02', recall_source_allowed('x', '[1, 2]'); -- error: recall_source_allowed: sources must be a JSON array of glob patterns
