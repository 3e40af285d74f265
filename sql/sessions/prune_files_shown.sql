-- The files shown not since :before (Unix seconds) go.
delete from files_shown where used_at < :before;
