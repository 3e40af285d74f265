-- The sessions whose last capture failed or may have been killed, that may be tried
-- again (fewer than :attempts for the transcript as it is), but :except, the oldest
-- failures first: the caller keeps those whose process no longer runs.
select session, transcript, pid from sessions
where transcript is not null and attempts < :attempts and (problem is not null or pid is not null)
  and session is not :except
order by coalesce(failed_at, used_at);
