-- find_duplicate: the id of an item identical to one about to be imported (same source,
-- project, title, summary, questions, atoms and time; the transcript is not compared),
-- or no row. Parameters as in import_item.sql. The index on the source, the time and the
-- title's start (migration 0007) finds it among the items that share its time. (`+title`:
-- with a bare `title = :title` SQLite puts :title in place of the column in the other
-- terms, and the index's expression is no longer seen.)
select id from items
where source = :source and occurred_at = :occurred_at
  and substr(title, 1, 64) = substr(:title, 1, 64)
  and project is :project and +title = :title and summary = :summary
  and questions = :questions and atoms = :atoms
limit 1;
