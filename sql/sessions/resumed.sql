-- A session resumed (or compacted) had its first prompt already. :session, :now (Unix
-- seconds).
insert into sessions (session, prompted, used_at) values (:session, 1, :now)
on conflict (session) do update set prompted = 1, used_at = excluded.used_at;
