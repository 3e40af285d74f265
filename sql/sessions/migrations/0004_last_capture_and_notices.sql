-- Version 3 had no time of the last capture that committed, nor any notice.
alter table sessions add column captured_at integer;
create table if not exists notices (
  what text primary key,
  at text not null
) without rowid;
pragma user_version = 4;
