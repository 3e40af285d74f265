-- command_candidates: what the session hook knows of a shell command or of an error line
-- (before a command, after one failed). Of the newest :candidates items whose atoms hold
-- every plain word of the masked line (:match, an FTS5 query of the atoms column), those
-- of :project (with the global ones; NULL: every project) that :sources allows, newest
-- first, with their atoms: the hook keeps those holding a line that is the same under its
-- masking rule (cli/src/hook/masked.rs).
select i.id, i.occurred_at as date, i.title, i.project, i.source, i.kind, i.global, i.atoms
from items as i
where i.id in (select rowid from items_fts where items_fts match :match
               order by rowid desc limit :candidates)
  and (:project is null or i.project = :project or i.global = 1)
  and recall_source_allowed(i.source, :sources)
order by i.occurred_at desc, i.id desc;
