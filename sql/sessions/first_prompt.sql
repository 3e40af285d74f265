-- The session's first prompt, recorded: a row changed when this is it, none when an
-- earlier prompt was recorded already. :session, :now (Unix seconds).
insert into sessions (session, prompted, used_at) values (:session, 1, :now)
on conflict (session) do update set prompted = 1, used_at = excluded.used_at
where prompted = 0;
