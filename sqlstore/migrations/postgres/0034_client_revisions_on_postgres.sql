-- Each client row carries a revision on PostgreSQL too, so that every
-- server process keeps the documents it has read and tells by the
-- number alone whether a kept one is still the stored one (keptDocs,
-- keptdocs.go). A page of 100 clients read again then travels as ids
-- and numbers, some 4 KB, with the documents of the rows changed since
-- it was last read, where all its documents are some 124 KB.
--
-- The numbers come from one sequence of the database, which only grows
-- and never hands out a number twice, rolled back or not. A trigger
-- gives every row version its own: every row inserted and every update
-- of a row, whatever the statement says, so that no write can forget to
-- and none can set one by hand (the API, imports, SQL typed by hand). An
-- update that changes nothing of the document still takes a number; a
-- kept document is then only read once more. The rows there before keep
-- revision 0 until their first change: no row is ever given 0 again, so
-- 0 names each such row's present document for good. Servers on one
-- database share the sequence, so a number read by one means the same
-- to all. A page reads the numbers with its ids through the primary key,
-- as it read the documents: an index holding them would save the page
-- little and cost every write and load one more.
--
-- A load (SeedAll) gives the rows it loads one number of its own, taken
-- from the sequence, as SQLite's load does, and the insert trigger
-- leaves the rows of a load alone: before its second batch of rows of a
-- table a load marks the table and business in the transaction's
-- setting practiced.loading, which practiced_loading reads. Its first
-- batch's rows are written before the mark, and take numbers of their
-- own. Running the trigger's function for a million rows cost a load
-- 2.5–4.6 s.
CREATE OR REPLACE FUNCTION practiced_loading(tbl TEXT, biz TEXT) RETURNS boolean LANGUAGE sql STABLE
    AS $$ SELECT position('/' || tbl || ':' || biz || '/' IN COALESCE(current_setting('practiced.loading', true), '')) > 0 $$;
CREATE SEQUENCE client_revisions;
ALTER TABLE clients ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
CREATE FUNCTION clients_take_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.revision := nextval('client_revisions');
    RETURN NEW;
END
$$;
CREATE TRIGGER clients_revision BEFORE UPDATE ON clients
    FOR EACH ROW EXECUTE FUNCTION clients_take_revision();
CREATE TRIGGER clients_revision_insert BEFORE INSERT ON clients
    FOR EACH ROW WHEN (NOT practiced_loading('clients', NEW.business_id)) EXECUTE FUNCTION clients_take_revision();
