-- list_versions holds, for each business, a number that changes in the
-- same transaction as any row of its clients: triggers take it, so no
-- write can forget to (the API, imports, Seed, fillDocs, a purge, SQL
-- typed by hand). Two reads that see the same number see the same
-- clients, which is what lets a server keep a page of clients it has
-- answered and answer it again while the number stands (httpapi's
-- pageCache). The business column is not named business_id so that
-- DeleteBusiness, which empties every table with that column, leaves
-- it: the number must never go back to one it had. SQLite has one
-- writer at a time, so each changed row adds one at once; PostgreSQL
-- adds one per transaction at commit (migrations/postgres/0023_…). Each
-- trigger's one statement ends on the line of its END, as migrations
-- split on lines that end with a semicolon.
CREATE TABLE list_versions (
    business TEXT NOT NULL,
    list     TEXT NOT NULL,
    version  BIGINT NOT NULL,
    PRIMARY KEY (business, list)
);
CREATE TRIGGER clients_version_insert AFTER INSERT ON clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER clients_version_update AFTER UPDATE ON clients FOR EACH ROW
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
