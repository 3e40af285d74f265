-- A capture of :session whose process is gone without a word: its :problem, at :now
-- (Unix seconds).
update sessions set pid = null, problem = :problem, failed_at = :now where session = :session;
