-- Version 2 had no record of the files whose memory a session was shown.
create table if not exists files_shown (
  session text not null,
  file text not null,
  used_at integer not null,
  primary key (session, file)
) without rowid;
pragma user_version = 3;
