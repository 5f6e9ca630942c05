-- A busy time's insert adds one to its business's busy_times version
-- (0024_…) from the writer, once in each transaction that inserts some
-- (countInserts), and no longer by a trigger: a trigger made every
-- insert run its upsert of list_versions and save each page it changed
-- for a rollback of the statement, a seventh of a busy time's insert and
-- its event together. Updates and deletes keep their triggers. PostgreSQL
-- counts each transaction's changes once at commit (0025_…) and keeps
-- its trigger.
DROP TRIGGER IF EXISTS busy_times_version_insert;
