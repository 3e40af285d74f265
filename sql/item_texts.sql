-- item_texts: the text an item's vector is made from (`recall embed`): its title,
-- summary, questions and atoms, then its neighbours' titles (its context), one to a
-- line; what search matches, but the project's name. In a conversation a turn's words
-- often say little without the turns around it ("Yes, the red one"), as search's
-- context column and stage hold. A batch at a time, in id order.
--
-- Parameters:
--   :after  the last id of the previous batch (default: from the first item)
--   :batch  how many items, default 32
--
-- Columns: id, imported_at (when the item was last written: a vector older than that
-- is made again), context (a vector made with another is made again), text.
select i.id, i.imported_at, i.context,
       trim(i.title || char(10) || i.summary || char(10) || i.questions || char(10)
            || i.atoms || char(10) || i.context, char(10) || ' ') as text
from items as i
where i.id > coalesce(:after, -9223372036854775808)
order by i.id
limit max(1, coalesce(:batch, 32));
