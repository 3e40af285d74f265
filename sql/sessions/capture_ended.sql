-- How the detached capture of :session ended: its :problem, or NULL once it committed
-- (which clears an earlier one, and the attempts), at :now (Unix seconds). :pid, the
-- capture's own process id, so that a capture started after it is not taken for ended;
-- NULL: whichever.
update sessions set pid = null, problem = :problem,
  failed_at = case when :problem is null then null else :now end,
  captured_at = case when :problem is null then :now else captured_at end,
  attempts = case when :problem is null then 0 else attempts end
where session = :session and (:pid is null or pid is null or pid = :pid);
