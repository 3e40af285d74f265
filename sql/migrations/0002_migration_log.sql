-- 0002: a log of applied migrations, for people and tools that inspect a library.
-- The CLI adds one row per migration it applies, in that migration's transaction; this
-- migration records the history up to itself.
create table recall_migrations (
  version    integer primary key,
  name       text not null,
  applied_at text not null
) strict;

insert into recall_migrations (version, name, applied_at)
select 1, 'library', coalesce((select value from recall_meta where key = 'created_at'),
                              strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
