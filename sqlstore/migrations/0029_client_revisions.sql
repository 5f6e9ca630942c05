-- Each client row carries a revision, a number that grows with every
-- change of its document, so that a server can keep the documents it has
-- read and tell by the number alone whether a kept one is still the
-- stored one (keptDocs, keptdocs.go). Triggers set it, so that no write
-- can forget to: the API, imports, fillDocs, SQL typed by hand. A new
-- row takes one more than its business's clients version (list_versions,
-- 0023_…), which only grows, even across deletes, so a client deleted
-- and made again never takes a revision it had before; a changed
-- document, one more than the larger of that version and the row's own
-- revision. A load sets the revision of the rows it writes itself
-- (SeedAll), and the insert trigger leaves those alone. Nothing may set
-- a revision lower than the row's: a kept document would match again. The index holds
-- what a page of the list of live clients needs to find its kept
-- documents, archived_at only so that SQLite reads such a page from the
-- index alone. The clients version counts changes of the clients, and a
-- revision set by its trigger is none: the version's update trigger
-- (0023_…) now leaves out an update that moves the revision alone.
-- PostgreSQL's server process keeps no documents, and its
-- database has neither (migrations/postgres/0029_…). Each trigger's one
-- statement ends on the line of its END, as migrations split on lines
-- that end with a semicolon.
ALTER TABLE clients ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
CREATE INDEX clients_live_revisions ON clients (business_id, id, revision, archived_at) WHERE archived_at IS NULL;
CREATE TRIGGER clients_revision_insert AFTER INSERT ON clients FOR EACH ROW WHEN NEW.revision = 0
BEGIN
    UPDATE clients SET revision = COALESCE((SELECT version FROM list_versions WHERE business = NEW.business_id AND list = 'clients'), 0) + 1
        WHERE rowid = NEW.rowid; END;
CREATE TRIGGER clients_revision_forward BEFORE UPDATE OF revision ON clients FOR EACH ROW WHEN NEW.revision < OLD.revision
BEGIN
    SELECT RAISE(ABORT, 'a client''s revision never goes back'); END;
CREATE TRIGGER clients_revision_update AFTER UPDATE OF doc ON clients FOR EACH ROW
BEGIN
    UPDATE clients SET revision = MAX(OLD.revision, COALESCE((SELECT version FROM list_versions WHERE business = NEW.business_id AND list = 'clients'), 0)) + 1
        WHERE rowid = NEW.rowid; END;
DROP TRIGGER clients_version_update;
CREATE TRIGGER clients_version_update AFTER UPDATE ON clients FOR EACH ROW
    WHEN NEW.revision IS OLD.revision OR NEW.doc IS NOT OLD.doc
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
