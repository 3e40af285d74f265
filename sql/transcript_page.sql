-- The review page's transcript of one item, a page at a time, so that a long one is
-- never sent, nor held, whole for one request: its length in characters, and the
-- :limit characters from :offset (0 the first). A forbidden item answers as a missing
-- one (no row). Parameters: :id, :offset, :limit, :sources (a JSON array of glob
-- patterns; NULL: all).
select length(transcript) as total,
       substr(transcript, :offset + 1, :limit) as text
from items
where id = :id and recall_source_allowed(source, :sources);
