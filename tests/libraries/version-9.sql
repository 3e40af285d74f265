-- A recall library at schema version 9, made by tests/libraries/make.sh: kept as it is.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE recall_meta (
  key   text primary key,
  value text not null
) strict;
INSERT INTO recall_meta VALUES('created_at','2026-12-07T00:12:26Z');
INSERT INTO recall_meta VALUES('tokenizer','unicode61 remove_diacritics 2');
INSERT INTO recall_meta VALUES('created_by','recall v0.1.0');
CREATE TABLE recall_migrations (
  version    integer primary key,
  name       text not null,
  applied_at text not null
) strict;
INSERT INTO recall_migrations VALUES(1,'library','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(2,'migration_log','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(3,'ids_never_reused','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(4,'capture','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(5,'kinds_and_global','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(6,'neighbour_context','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(7,'neighbours_of_one_source','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(8,'atom_keys','2026-12-07T00:12:26Z');
INSERT INTO recall_migrations VALUES(9,'runs','2026-12-07T00:12:26Z');
CREATE TABLE IF NOT EXISTS "items" (
  id          integer primary key autoincrement,
  source      text not null check (source <> ''),
  project     text,
  title       text not null,
  summary     text not null default '',
  questions   text not null default '',
  atoms       text not null default '',
  occurred_at text not null,  -- ISO-8601 UTC, normalised on import: 2025-03-04T05:06:07Z
  transcript  text,           -- stored, never indexed
  imported_at text not null default (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
, kind text
  check (kind is null or (length(kind) between 1 and 32 and kind not glob '*[^a-z0-9-]*')), global integer not null default 0 check (global in (0, 1)), context text not null default '');
INSERT INTO items VALUES(1,'agent-claude','shop','Zanzibar coupons rejected at checkout','The coupon rule compared cents with euros; fixed in pricing.rs.','Why does the checkout reject zanzibar coupons?','src/pricing.rs','2024-03-04T05:06:07Z','user: why are coupons rejected?','2026-12-07T00:12:26Z',NULL,0,'');
INSERT INTO items VALUES(2,'agent-claude','shop','Café menu: crème brûlée out of stock','The stock sync dropped accented names.','','','2024-05-01T10:00:00Z',NULL,'2026-12-07T00:12:26Z',NULL,0,'');
INSERT INTO items VALUES(3,'human-notes','api','Postgres ECONNREFUSED on port 5432 after the upgrade','pg_hba.conf lost the docker network; restored it.','','deploy/pg_hba.conf','2025-01-15T08:30:00Z',NULL,'2026-12-07T00:12:26Z',NULL,0,'');
INSERT INTO items VALUES(4,'agent-codex',NULL,'Quokka export slow: an index on quokka_id','The export scanned every row.','How to speed up the quokka export?','','2025-06-01T12:00:00Z',NULL,'2026-12-07T00:12:26Z',NULL,0,'');
CREATE TABLE capture_segments (
  agent text not null,
  session text not null,
  segment integer not null,
  item_id integer,
  digest text,
  primary key (agent, session, segment)
) without rowid;
CREATE TABLE capture_files (
  path text primary key,
  size integer not null,
  mtime_ns integer not null
) without rowid;
CREATE TABLE items_context_stale (
  id integer primary key,
  context text
);
PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','items_fts','items_fts',0,'CREATE VIRTUAL TABLE items_fts using fts5 (
  title, summary, questions, atoms, project, context,
  content = ''items'', content_rowid = ''id'',
  tokenize = ''unicode61 remove_diacritics 2''
)');
CREATE TABLE IF NOT EXISTS 'items_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
INSERT INTO items_fts_data VALUES(1,X'041c1f0e070300');
INSERT INTO items_fts_data VALUES(10,X'000000000101010001010101');
INSERT INTO items_fts_data VALUES(137438953473,X'000002b50530353433320302060108616363656e746564020601010602046674657203020702016e04020502027069030601040202017401020501066272756c65650202050104636166650202020204656e7473010601010602076865636b6f757401080601020502076f6d7061726564010601010503026e66030c010104010305030475706f6e0106010103070173010803010208020472656d6502020401066465706c6f79030601030202056f636b657203060101070302657301060102030206726f707065640206010105010c65636f6e6e72656675736564030203020475726f7301060101080204766572790406010105020578706f7274040e030101030102080105666978656401060101090103686261030c01010301030402026f7704060102020102696404020902016e010601010a0303646578040206020174030601010a01046c6f7374030601010501046d656e7502020301056e616d6573020601010702066574776f726b030601010801026f6602020702016e0302040102070202757402020601027067030c01010201030302036f727403020503067374677265730302020206726963696e67010c01010b010303010671756f6b6b61040a0208010207010672656a656374010601020607026564010204030673746f726564030601010902026f770406010106020173010c01010c0103040203756c65010601010401077363616e6e656404060101040203686f700106010402010601040202036c6f7704020402047065656404060102040202726301060103020204746f636b0208080101030203796e6302060101040103746865010c0101020102040106010102010808010106010c01010201020602016f040601020301027570040601020503056772616465030209010377687901060102020203697468010601010701087a616e7a6962617201080201020704090f090609060b090b0f0e0c0b09090d0c090d110b0b100c0d09070808080b090c0d0709070c080b100f0d070d090b0a0e0f080b090c0a2008090a0a0a');
CREATE TABLE IF NOT EXISTS 'items_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
INSERT INTO items_fts_idx VALUES(1,X'',2);
CREATE TABLE IF NOT EXISTS 'items_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
INSERT INTO items_fts_docsize VALUES(1,X'050b07030100');
INSERT INTO items_fts_docsize VALUES(2,X'070600000100');
INSERT INTO items_fts_docsize VALUES(3,X'080900040100');
INSERT INTO items_fts_docsize VALUES(4,X'080507000000');
CREATE TABLE IF NOT EXISTS 'items_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO items_fts_config VALUES('version',4);
CREATE TABLE items_fts_pending (
  id integer primary key,
  title, summary, questions, atoms, project, context
);
CREATE TABLE items_atom_keys (
  key         integer not null,
  occurred_at text not null,
  item_id     integer not null,
  primary key (key, occurred_at, item_id)
) strict, without rowid;
CREATE TABLE items_atom_keys_pending (
  item_id integer primary key
) strict;
INSERT INTO items_atom_keys_pending VALUES(1);
INSERT INTO items_atom_keys_pending VALUES(3);
CREATE TABLE items_runs (
  id  integer primary key,
  run text not null unique
) strict;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','items_runs_fts','items_runs_fts',0,'CREATE VIRTUAL TABLE items_runs_fts using fts5 (
  run,
  content = ''items_runs'', content_rowid = ''id'',
  tokenize = ''unicode61 remove_diacritics 2''
)');
CREATE TABLE IF NOT EXISTS 'items_runs_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
INSERT INTO items_runs_fts_data VALUES(1,X'');
INSERT INTO items_runs_fts_data VALUES(10,X'00000000000000');
CREATE TABLE IF NOT EXISTS 'items_runs_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS 'items_runs_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
CREATE TABLE IF NOT EXISTS 'items_runs_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO items_runs_fts_config VALUES('version',4);
CREATE TABLE items_run_items (
  run     integer not null,
  item_id integer not null,
  primary key (run, item_id)
) strict, without rowid;
CREATE TABLE items_runs_pending (
  item_id integer primary key
) strict;
INSERT INTO items_runs_pending VALUES(1);
INSERT INTO items_runs_pending VALUES(2);
INSERT INTO items_runs_pending VALUES(3);
INSERT INTO items_runs_pending VALUES(4);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('items',4);
CREATE INDEX items_by_project on items (project, occurred_at);
CREATE INDEX items_by_source on items (source, occurred_at);
CREATE INDEX items_by_time on items (occurred_at);
CREATE INDEX items_global on items (occurred_at) where global = 1;
CREATE TRIGGER items_context_before_delete before delete on items begin
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = old.id
    except select id from items_context_stale;
end;
CREATE TRIGGER items_context_before_update
before update of id, title, project, source, occurred_at on items begin
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = old.id
    except select id from items_context_stale;
end;
CREATE TRIGGER items_fts_before_insert before insert on items begin
  insert or replace into items_fts_pending (id, title, summary, questions, atoms, project, context)
    select id, title, summary, questions, atoms, project, context from items where id = new.id;
  insert into items_context_stale (id)
    select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
end;
CREATE TRIGGER items_fts_after_insert after insert on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', id, title, summary, questions, atoms, project, context
    from items_fts_pending where id = new.id;
  delete from items_fts_pending where id = new.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project, new.context);
  insert into items_context_stale (id)
    select new.id union select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;
CREATE TRIGGER items_fts_after_delete after delete on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project,
            old.context);
  delete from items_fts_pending where id = old.id;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;
CREATE TRIGGER items_fts_after_update
after update of id, title, summary, questions, atoms, project, source, occurred_at on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project,
            old.context);
  delete from items_fts_pending where id = old.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project, new.context);
  insert into items_context_stale (id)
    select new.id union select v.id from items_neighbours as v where v.of_id = new.id
    except select id from items_context_stale;
  update items_context_stale set context = (select w.context from items_context_wanted as w
                                            where w.id = items_context_stale.id);
  delete from items_context_stale
    where context is (select i.context from items as i where i.id = items_context_stale.id)
       or id not in (select id from items);
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project, context)
    select 'delete', i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  update items set context = (select s.context from items_context_stale as s where s.id = items.id)
    where id in (select id from items_context_stale);
  insert into items_fts (rowid, title, summary, questions, atoms, project, context)
    select i.id, i.title, i.summary, i.questions, i.atoms, i.project, i.context
    from items_context_stale as s join items as i on i.id = s.id;
  delete from items_context_stale;
end;
CREATE INDEX items_by_run on items (source, project, occurred_at);
CREATE INDEX items_by_content on items (source, occurred_at, substr(title, 1, 64));
CREATE VIEW items_neighbours as
with setting as (
  select coalesce((select cast(value as integer) from recall_meta
                   where key = 'index_context_radius'), 1) as radius,
         coalesce((select cast(value as real) from recall_meta
                   where key = 'index_context_gap_minutes'), 30) as gap
)
select i.id as of_id, n.id as id
from items as i
cross join items as n on n.id in (
  select id from (
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at = i.occurred_at and y.id > i.id
      order by y.id limit (select radius from setting))
    union all
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at > i.occurred_at
        and y.occurred_at <= strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                      '+' || (select gap from setting) || ' minutes')
      order by y.occurred_at, y.id limit (select radius from setting))
    order by occurred_at, id limit (select radius from setting)))
union all
select i.id, n.id
from items as i
cross join items as n on n.id in (
  select id from (
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at = i.occurred_at and y.id < i.id
      order by y.id desc limit (select radius from setting))
    union all
    select id, occurred_at from (
      select y.id, y.occurred_at from items as y
      where y.source = i.source and y.project is i.project
        and y.occurred_at < i.occurred_at
        and y.occurred_at >= strftime('%Y-%m-%dT%H:%M:%SZ', i.occurred_at,
                                      '-' || (select gap from setting) || ' minutes')
      order by y.occurred_at desc, y.id desc limit (select radius from setting))
    order by occurred_at desc, id desc limit (select radius from setting)));
CREATE VIEW items_context_wanted as
select i.id,
       coalesce((select group_concat(n.title, ' ')
                 from items as n
                 where n.id in (select v.id from items_neighbours as v where v.of_id = i.id)),
                '') as context
from items as i;
CREATE INDEX items_atom_keys_by_item on items_atom_keys (item_id);
CREATE TRIGGER items_atom_keys_after_insert after insert on items begin
  delete from items_atom_keys where item_id = new.id;
  insert or ignore into items_atom_keys_pending (item_id)
    select new.id where new.atoms <> '';
end;
CREATE TRIGGER items_atom_keys_after_update after update of id, atoms, occurred_at on items begin
  delete from items_atom_keys where item_id = old.id;
  delete from items_atom_keys_pending where item_id = old.id;
  insert or ignore into items_atom_keys_pending (item_id)
    select new.id where new.atoms <> '';
end;
CREATE TRIGGER items_atom_keys_after_delete after delete on items begin
  delete from items_atom_keys where item_id = old.id;
  delete from items_atom_keys_pending where item_id = old.id;
end;
CREATE TRIGGER items_runs_after_insert after insert on items_runs begin
  insert into items_runs_fts (rowid, run) values (new.id, new.run);
end;
CREATE TRIGGER items_runs_after_delete after delete on items_runs begin
  insert into items_runs_fts (items_runs_fts, rowid, run) values ('delete', old.id, old.run);
end;
CREATE INDEX items_run_items_by_item on items_run_items (item_id);
CREATE TRIGGER items_run_items_after_delete after delete on items_run_items
when not exists (select 1 from items_run_items where run = old.run) begin
  delete from items_runs where id = old.run;
end;
CREATE TRIGGER items_runs_after_insert_item after insert on items begin
  delete from items_run_items where item_id = new.id;
  insert or ignore into items_runs_pending (item_id) values (new.id);
end;
CREATE TRIGGER items_runs_after_update_item
after update of id, title, summary, questions, atoms, project on items begin
  delete from items_run_items where item_id = old.id;
  delete from items_runs_pending where item_id = old.id;
  insert or ignore into items_runs_pending (item_id) values (new.id);
end;
CREATE TRIGGER items_runs_after_delete_item after delete on items begin
  delete from items_run_items where item_id = old.id;
  delete from items_runs_pending where item_id = old.id;
end;
PRAGMA writable_schema=OFF;
COMMIT;
PRAGMA application_id = 1380142156;
PRAGMA user_version = 9;
