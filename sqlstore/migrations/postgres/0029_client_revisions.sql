-- The clients' revisions (migrations/0029_…) serve only the documents a
-- SQLite store keeps in its process; PostgreSQL's needs none.
SELECT 1;
