-- recall_terms: the terms recall_match uses, unquoted, as a JSON array.
select 'terms_01', recall_terms('analytics shop "consent banner"') = '["analytics","shop","consent banner"]';
select 'terms_02', recall_terms('a b') = '[]';
select 'terms_03', recall_terms('foo"bar') = '["foo\"bar"]';
select 'terms_04', recall_terms('When did Melanie paint a sunrise?', 3, 1) = '["Melanie","paint","sunrise"]';
select 'terms_05', recall_terms(NULL) is null;
select 'terms_06', (select group_concat(value, '|') from json_each(recall_terms('¿Qué pasó con la migración?'))) = 'Qué|pasó|con|migración';
select 'terms_07', recall_terms('ab abc', 1) = '["ab","abc"]';
select 'terms_08', json_array_length(recall_terms('The Who', 3, 1)) = 2;
select 'terms_09', (with recursive n(i) as (select 0 union all select i + 1 from n where i < 199) select json_array_length(recall_terms(group_concat('t' || i, ' '))) from n) = 64;
