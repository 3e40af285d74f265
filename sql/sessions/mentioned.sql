-- A session start mentioned the failures up to :at (ISO-8601 UTC): a row changed unless
-- a later one was mentioned already.
insert into notices (what, at) values ('failure', :at)
on conflict (what) do update set at = excluded.at where excluded.at > at;
