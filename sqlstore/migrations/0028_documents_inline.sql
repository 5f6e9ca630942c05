-- On PostgreSQL (migrations/postgres/0028_…), a row of a table with
-- stored documents stays whole in its table up to a page's size. SQLite
-- keeps every row whole and needs nothing.
SELECT 1;
