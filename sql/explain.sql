-- explain: what a query searched for, and facts to tell why an answer is empty.
-- Parameters: :query (NULL for timeline), :tokenizer, :drop_stopwords.
--   terms    the terms searched, as a JSON array (NULL without a query)
--   items    how many items the library holds
select case when :query is null then null
            else recall_terms(:query, :tokenizer, coalesce(:drop_stopwords, 1))
       end as terms,
       (select count(*) from items) as items;
