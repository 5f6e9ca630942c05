-- A row longer than about 2 KB is TOASTed by default: PostgreSQL tries to
-- compress its longest values and moves what it cannot shrink enough to
-- the table's TOAST table. A record's stored document is JSON of 1 to
-- 2 KB that rarely compresses by the quarter pglz asks of it, so most
-- client rows had their document moved out of line: every insert wrote
-- two rows and an index entry more, and every page of a list read
-- fetched each document from the TOAST table. Rows up to a page's size
-- now stay whole and uncompressed; a longer one is still TOASTed.
ALTER TABLE clients SET (toast_tuple_target = 8160);
ALTER TABLE contacts SET (toast_tuple_target = 8160);
ALTER TABLE practitioners SET (toast_tuple_target = 8160);
ALTER TABLE locations SET (toast_tuple_target = 8160);
