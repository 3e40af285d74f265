-- find_duplicate: the id of an item identical to one about to be imported (same source,
-- project, title, summary, questions, atoms and time; the transcript is not compared),
-- or no row. Parameters as in import_item.sql; the (source, occurred_at) index finds it.
select id from items
where source = :source and occurred_at = :occurred_at
  and project is :project and title = :title and summary = :summary
  and questions = :questions and atoms = :atoms
limit 1;
