-- 0004: what `recall capture` has captured. Each segment of an agent's session it made
-- an item of (item_id null once the item is forgotten, so that capture does not bring it
-- back), with the digest of what the item was made from (the same digest: the same
-- item, not written again); and each file it read, by path, size and modification time,
-- so that a file unchanged since is not read again.
create table capture_segments (
  agent text not null,
  session text not null,
  segment integer not null,
  item_id integer,
  digest text,
  primary key (agent, session, segment)
) without rowid;

create table capture_files (
  path text primary key,
  size integer not null,
  mtime_ns integer not null
) without rowid;
