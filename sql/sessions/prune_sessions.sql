-- The sessions not used since :before (Unix seconds) go.
delete from sessions where used_at < :before;
