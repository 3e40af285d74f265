-- A capture of :transcript at :size and :mtime_ns started for :session, process :pid,
-- the :attempts-th for the transcript as it is. :same (1: the transcript as it was
-- before) keeps the last problem, else it goes. :now (Unix seconds).
insert into sessions (session, transcript, size, mtime_ns, used_at, pid, attempts)
values (:session, :transcript, :size, :mtime_ns, :now, :pid, :attempts)
on conflict (session) do update set transcript = excluded.transcript,
  size = excluded.size, mtime_ns = excluded.mtime_ns, used_at = excluded.used_at,
  pid = excluded.pid, attempts = excluded.attempts,
  problem = case when :same then problem end,
  failed_at = case when :same then failed_at end;
