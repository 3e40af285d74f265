-- The hook's session state beside the library (`memory.db.sessions`,
-- cli/src/library/sessions.rs), made at the latest version: a file of an earlier one
-- is brought to it by migrations/ instead.
create table if not exists sessions (
  session text primary key,
  -- 1 once the session's first prompt was answered (or a resumed start said it had been)
  prompted integer not null default 0,
  -- the transcript as last handed to capture
  transcript text,
  size integer,
  mtime_ns integer,
  -- Unix seconds of the entry's last use, for pruning
  used_at integer not null,
  -- the detached capture's process id while it may run (null once it ended)
  pid integer,
  -- the captures started for this transcript at this size and time
  attempts integer not null default 0,
  -- the last failed capture's error, and when (Unix seconds)
  problem text,
  failed_at integer,
  -- when a capture of this session last committed (Unix seconds)
  captured_at integer
) without rowid;
create index if not exists sessions_used_at on sessions(used_at);
create table if not exists files_shown (
  session text not null,
  -- the file as items name it (project::file_in_checkout)
  file text not null,
  -- Unix seconds, for pruning
  used_at integer not null,
  primary key (session, file)
) without rowid;
-- what a session start has told the agent: 'failure', with the time (ISO-8601 UTC) of the
-- newest failure it mentioned
create table if not exists notices (
  what text primary key,
  at text not null
) without rowid;
pragma user_version = 4;
