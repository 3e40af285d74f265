-- A tiny library for the shell demo and the README cookbook: plain SQLite, no CLI.
create table items(
  id integer primary key,
  project text,
  title text not null,
  summary text,
  occurred_at text not null
);
create virtual table items_fts using fts5(
  title, summary, content = 'items', content_rowid = 'id', tokenize = 'trigram'
);
insert into items(project, title, summary, occurred_at) values
  ('shop', 'Add the analytics script to the shop', 'Loaded on every page, before the consent banner.', '2024-02-10T09:00:00Z'),
  ('shop', 'Consent banner: block analytics until accepted', 'The analytics script now waits for consent.', '2024-06-02T15:30:00Z'),
  ('shop', 'Remove the analytics script', 'Decided to drop analytics entirely; the consent banner goes too.', '2025-01-20T11:00:00Z'),
  ('api', 'Fix "database is locked" errors in the importer', 'busy_timeout set to 5 s; WAL mode on.', '2024-11-05T08:15:00Z'),
  ('api', 'Migración de la base de datos', 'Nueva columna occurred_at, normalizada a UTC.', '2025-02-01T10:00:00Z');
insert into items_fts(items_fts) values ('rebuild');
