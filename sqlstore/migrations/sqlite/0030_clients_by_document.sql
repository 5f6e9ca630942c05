-- The shared migration of this number, made on SQLite by building the
-- clients' table once instead of rewriting it for each dropped column:
-- a new table with the columns kept, every row copied into it (its rowid
-- and revision with it), the old table dropped and the new one renamed,
-- then its indexes and triggers made again as migrations 0001, 0003,
-- 0023 and 0029 left them. Migrate runs it with foreign keys off (the
-- drop would otherwise check every other table's references to the old
-- table's rows) and checks every reference before it commits. A
-- trigger's statements end on the line of its END, as migrations split
-- on lines that end with a semicolon.
CREATE TABLE clients_by_document (
    business_id          TEXT NOT NULL REFERENCES businesses (id),
    id                   TEXT NOT NULL,
    email                TEXT NOT NULL DEFAULT '',
    emergency_contact_id TEXT,
    invoice_contact_id   TEXT,
    referral_type_id     TEXT,
    referred_by_id       TEXT,
    tag_ids              TEXT NOT NULL DEFAULT '[]',
    search               TEXT NOT NULL DEFAULT '',
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    archived_at          TIMESTAMPTZ,
    doc                  TEXT,
    revision             INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, emergency_contact_id) REFERENCES contacts (business_id, id),
    FOREIGN KEY (business_id, invoice_contact_id) REFERENCES contacts (business_id, id),
    FOREIGN KEY (business_id, referral_type_id) REFERENCES referral_types (business_id, id)
);

INSERT INTO clients_by_document (rowid, business_id, id, email, emergency_contact_id, invoice_contact_id,
    referral_type_id, referred_by_id, tag_ids, search, created_at, updated_at, archived_at, doc, revision)
SELECT rowid, business_id, id, email, emergency_contact_id, invoice_contact_id,
    referral_type_id, referred_by_id, tag_ids, search, created_at, updated_at, archived_at, doc, revision
FROM clients ORDER BY rowid;

DROP TABLE clients;
ALTER TABLE clients_by_document RENAME TO clients;

CREATE INDEX clients_updated ON clients (business_id, updated_at);
CREATE INDEX clients_email_lower ON clients (business_id, lower(email));
CREATE INDEX clients_live_revisions ON clients (business_id, id, revision, archived_at) WHERE archived_at IS NULL;

CREATE TRIGGER clients_version_insert AFTER INSERT ON clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER clients_version_move AFTER UPDATE ON clients FOR EACH ROW WHEN OLD.business_id IS NOT NEW.business_id
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER clients_version_delete AFTER DELETE ON clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
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
CREATE TRIGGER clients_version_update AFTER UPDATE ON clients FOR EACH ROW
    WHEN NEW.doc IS NOT OLD.doc OR NEW.revision IS OLD.revision
        OR NEW.revision IS NOT (SELECT version FROM list_versions WHERE business = '' AND list = 'client_revisions')
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
