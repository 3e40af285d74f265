-- The default tokenizer's table, for hosts with SQLite 3.45+ (see fts_tables.sql).
insert into fts_tables values ('tri_rd', 'trigram remove_diacritics 1');
create virtual table tri_rd using fts5 (body, tokenize = 'trigram remove_diacritics 1');
insert into tri_rd (body) select body from fts_rows;
