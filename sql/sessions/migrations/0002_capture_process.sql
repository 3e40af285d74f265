-- Version 1 had no record of the capture's process or its failures.
alter table sessions add column pid integer;
alter table sessions add column attempts integer not null default 0;
alter table sessions add column problem text;
alter table sessions add column failed_at integer;
pragma user_version = 2;
