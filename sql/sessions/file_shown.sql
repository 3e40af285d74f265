-- A file whose memory the session was shown: a row inserted when it had not been shown
-- it before. :session, :file (as items name it), :now (Unix seconds).
insert into files_shown (session, file, used_at) values (:session, :file, :now)
on conflict do nothing;
