-- explain: what a query searched for, and facts to tell why an answer is empty.
-- Parameters: :query (NULL for timeline), :tokenizer, :drop_stopwords, :sources (JSON
-- array of glob patterns of readable sources; NULL: all).
--   terms    the terms searched, as a JSON array (NULL without a query)
--   items    how many items the caller may read (all the library's without :sources)
select case when :query is null then null
            else recall_terms(:query, :tokenizer, coalesce(:drop_stopwords, 1))
       end as terms,
       (select count(*) from items
        where :sources is null or recall_source_allowed(source, :sources)) as items;
