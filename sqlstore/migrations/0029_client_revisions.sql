-- Each client row carries a revision, a number no other row and no other
-- document of its own row ever had, so that a server can keep the
-- documents it has read and tell by the number alone whether a kept one
-- is still the stored one (keptDocs, keptdocs.go). The numbers come from
-- one counter of the database, the list_versions row ('', 'client_revisions'),
-- which only grows: DeleteBusiness leaves list_versions as it is.
-- Triggers take the next number for every row inserted, whatever it
-- says, and for every update of a row's document, id or business, or of
-- its revision to another number than the counter's, so that no write
-- can forget to and none can set one by hand: the API, imports,
-- fillDocs, REPLACE, SQL typed by hand. (Their own update of a revision
-- sets it to the counter's number, and so fires neither again.) A large
-- load sets aside the insert trigger with the list's version trigger
-- and gives its rows the next number itself, then takes it (SeedAll).
-- The clients version (0023_…) counts changes of the clients, and the
-- update that sets a revision is none: its update trigger now leaves
-- out an update that sets the revision to the counter's number and
-- changes no document. The index holds what a page of the list of live
-- clients needs to find its kept documents, archived_at only so that
-- SQLite reads such a page from the index alone. PostgreSQL's server
-- process keeps no documents, and its database has neither
-- (migrations/postgres/0029_…). A trigger's statements end on the line
-- of its END, as migrations split on lines that end with a semicolon.
ALTER TABLE clients ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE INDEX clients_live_revisions ON clients (business_id, id, revision, archived_at) WHERE archived_at IS NULL;
CREATE TRIGGER clients_revision_insert AFTER INSERT ON clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES ('', 'client_revisions', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; UPDATE clients
        SET revision = (SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions') WHERE rowid = NEW.rowid; END;
CREATE TRIGGER clients_revision_update AFTER UPDATE OF doc, id, business_id, revision ON clients FOR EACH ROW
    WHEN NEW.doc IS NOT OLD.doc OR NEW.id IS NOT OLD.id OR NEW.business_id IS NOT OLD.business_id
        OR NEW.revision IS NOT (SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions')
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES ('', 'client_revisions', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; UPDATE clients
        SET revision = (SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions') WHERE rowid = NEW.rowid; END;
DROP TRIGGER clients_version_update;
CREATE TRIGGER clients_version_update AFTER UPDATE ON clients FOR EACH ROW
    WHEN NEW.doc IS NOT OLD.doc OR NEW.revision IS OLD.revision
        OR NEW.revision IS NOT (SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions')
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
