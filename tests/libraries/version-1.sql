-- A recall library at schema version 1, made by tests/libraries/make.sh: kept as it is.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE recall_meta (
  key   text primary key,
  value text not null
) strict;
INSERT INTO recall_meta VALUES('created_at','2026-12-03T16:19:23Z');
INSERT INTO recall_meta VALUES('tokenizer','unicode61 remove_diacritics 2');
INSERT INTO recall_meta VALUES('created_by','recall v0.1.0');
CREATE TABLE items (
  id          integer primary key,
  source      text not null check (source <> ''),
  project     text,
  title       text not null,
  summary     text not null default '',
  questions   text not null default '',
  atoms       text not null default '',
  occurred_at text not null,  -- ISO-8601 UTC, normalised on import: 2025-03-04T05:06:07Z
  transcript  text,           -- stored, never indexed
  imported_at text not null default (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
INSERT INTO items VALUES(1,'agent-claude','shop','Zanzibar coupons rejected at checkout','The coupon rule compared cents with euros; fixed in pricing.rs.','Why does the checkout reject zanzibar coupons?','src/pricing.rs','2024-03-04T05:06:07Z','user: why are coupons rejected?','2026-12-03T16:19:23Z');
INSERT INTO items VALUES(2,'agent-claude','shop','Café menu: crème brûlée out of stock','The stock sync dropped accented names.','','','2024-05-01T10:00:00Z',NULL,'2026-12-03T16:19:23Z');
INSERT INTO items VALUES(3,'human-notes','api','Postgres ECONNREFUSED on port 5432 after the upgrade','pg_hba.conf lost the docker network; restored it.','','deploy/pg_hba.conf','2025-01-15T08:30:00Z',NULL,'2026-12-03T16:19:23Z');
INSERT INTO items VALUES(4,'agent-codex',NULL,'Quokka export slow: an index on quokka_id','The export scanned every row.','How to speed up the quokka export?','','2025-06-01T12:00:00Z',NULL,'2026-12-03T16:19:23Z');
PRAGMA writable_schema=ON;
INSERT INTO sqlite_schema(type,name,tbl_name,rootpage,sql)VALUES('table','items_fts','items_fts',0,'CREATE VIRTUAL TABLE items_fts using fts5 (
  title, summary, questions, atoms, project,
  content = ''items'', content_rowid = ''id'',
  tokenize = ''unicode61 remove_diacritics 2''
)');
CREATE TABLE IF NOT EXISTS 'items_fts_data'(id INTEGER PRIMARY KEY, block BLOB);
INSERT INTO items_fts_data VALUES(1,X'041c1f0e0703');
INSERT INTO items_fts_data VALUES(10,X'000000000101010001010101');
INSERT INTO items_fts_data VALUES(137438953473,X'000002b50530353433320302060108616363656e746564020601010602046674657203020702016e04020502027069030601040202017401020501066272756c65650202050104636166650202020204656e7473010601010602076865636b6f757401080601020502076f6d7061726564010601010503026e66030c010104010305030475706f6e0106010103070173010803010208020472656d6502020401066465706c6f79030601030202056f636b657203060101070302657301060102030206726f707065640206010105010c65636f6e6e72656675736564030203020475726f7301060101080204766572790406010105020578706f7274040e030101030102080105666978656401060101090103686261030c01010301030402026f7704060102020102696404020902016e010601010a0303646578040206020174030601010a01046c6f7374030601010501046d656e7502020301056e616d6573020601010702066574776f726b030601010801026f6602020702016e0302040102070202757402020601027067030c01010201030302036f727403020503067374677265730302020206726963696e67010c01010b010303010671756f6b6b61040a0208010207010672656a656374010601020607026564010204030673746f726564030601010902026f770406010106020173010c01010c0103040203756c65010601010401077363616e6e656404060101040203686f700106010402010601040202036c6f7704020402047065656404060102040202726301060103020204746f636b0208080101030203796e6302060101040103746865010c0101020102040106010102010808010106010c01010201020602016f040601020301027570040601020503056772616465030209010377687901060102020203697468010601010701087a616e7a6962617201080201020704090f090609060b090b0f0e0c0b09090d0c090d110b0b100c0d09070808080b090c0d0709070c080b100f0d070d090b0a0e0f080b090c0a2008090a0a0a');
CREATE TABLE IF NOT EXISTS 'items_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;
INSERT INTO items_fts_idx VALUES(1,X'',2);
CREATE TABLE IF NOT EXISTS 'items_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB);
INSERT INTO items_fts_docsize VALUES(1,X'050b070301');
INSERT INTO items_fts_docsize VALUES(2,X'0706000001');
INSERT INTO items_fts_docsize VALUES(3,X'0809000401');
INSERT INTO items_fts_docsize VALUES(4,X'0805070000');
CREATE TABLE IF NOT EXISTS 'items_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID;
INSERT INTO items_fts_config VALUES('version',4);
CREATE TABLE items_fts_pending (
  id integer primary key,
  title, summary, questions, atoms, project
);
CREATE INDEX items_by_project on items (project, occurred_at);
CREATE INDEX items_by_source on items (source, occurred_at);
CREATE INDEX items_by_time on items (occurred_at);
CREATE TRIGGER items_fts_before_insert before insert on items begin
  insert or replace into items_fts_pending (id, title, summary, questions, atoms, project)
    select id, title, summary, questions, atoms, project from items where id = new.id;
end;
CREATE TRIGGER items_fts_after_insert after insert on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    select 'delete', id, title, summary, questions, atoms, project
    from items_fts_pending where id = new.id;
  delete from items_fts_pending where id = new.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project);
end;
CREATE TRIGGER items_fts_after_delete after delete on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project);
  delete from items_fts_pending where id = old.id;
end;
CREATE TRIGGER items_fts_after_update
after update of id, title, summary, questions, atoms, project on items begin
  insert into items_fts (items_fts, rowid, title, summary, questions, atoms, project)
    values ('delete', old.id, old.title, old.summary, old.questions, old.atoms, old.project);
  delete from items_fts_pending where id = old.id;
  insert into items_fts (rowid, title, summary, questions, atoms, project)
    values (new.id, new.title, new.summary, new.questions, new.atoms, new.project);
end;
PRAGMA writable_schema=OFF;
COMMIT;
PRAGMA application_id = 1380142156;
PRAGMA user_version = 1;
