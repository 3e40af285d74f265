-- The problem of the last capture of :session that failed (NULL: none).
select problem from sessions where session = :session;
