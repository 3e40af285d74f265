-- `recall status`, on the hook's session state beside the library (`memory.db.sessions`,
-- cli/src/library/sessions.rs): the sessions whose last detached capture failed, the
-- newest first: the problem, when (Unix seconds), the captures started for the
-- transcript as it is, and the process id of one that may still run (NULL once ended).
select session, transcript, problem, failed_at, attempts, pid
from sessions
where problem is not null
order by failed_at desc, session;
