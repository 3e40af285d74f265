-- The capture the hook last started for :session: the transcript at its size and
-- modification time, its process id (NULL once it ended), the attempts at that size and
-- time, and the problem of the last one that failed.
select transcript, size, mtime_ns, pid, attempts, problem from sessions where session = :session;
