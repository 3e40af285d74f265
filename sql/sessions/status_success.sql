-- `recall status`, on the session state (from version 4): when a capture the hook started
-- last committed (Unix seconds, NULL: none recorded), and the time of the newest
-- failure a session start has mentioned (ISO-8601 UTC, NULL: none).
select (select max(captured_at) from sessions) as captured_at,
       (select at from notices where what = 'failure') as mentioned;
