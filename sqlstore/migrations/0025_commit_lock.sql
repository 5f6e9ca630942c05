-- On PostgreSQL (migrations/postgres/0025_…), the numbers taken at
-- commit take one lock of the business first. SQLite has one writer at a
-- time and needs nothing.
SELECT 1;
