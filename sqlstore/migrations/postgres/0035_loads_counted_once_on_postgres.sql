-- A load (SeedAll) counts each list it loads rows into once, as every
-- write does, by the deferred triggers of 0023_… and 0024_…, but its
-- rows after the first no longer queue a trigger event each. The
-- triggers ran list_versions_count at commit once for every row
-- inserted, to find the business counted already after the first: for
-- a million clients that cost a load 4–5 s. Before its second batch of
-- rows of a table a load marks the table and business
-- (practiced.loading, 0034_…), and the trigger on inserts skips a
-- marked one. Updates and deletes, and every
-- write outside a load, are counted as before.
DROP TRIGGER clients_version ON clients;
CREATE CONSTRAINT TRIGGER clients_version AFTER UPDATE OR DELETE ON clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER clients_version_insert AFTER INSERT ON clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading('clients', NEW.business_id))
    EXECUTE FUNCTION list_versions_count();
DROP TRIGGER busy_times_version ON busy_times;
CREATE CONSTRAINT TRIGGER busy_times_version AFTER UPDATE OR DELETE ON busy_times
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER busy_times_version_insert AFTER INSERT ON busy_times
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading('busy_times', NEW.business_id))
    EXECUTE FUNCTION list_versions_count();
DROP TRIGGER appointments_version ON appointments;
CREATE CONSTRAINT TRIGGER appointments_version AFTER UPDATE OR DELETE ON appointments
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER appointments_version_insert AFTER INSERT ON appointments
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading('appointments', NEW.business_id))
    EXECUTE FUNCTION list_versions_count();
DROP TRIGGER appointment_clients_version ON appointment_clients;
CREATE CONSTRAINT TRIGGER appointment_clients_version AFTER UPDATE OR DELETE ON appointment_clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER appointment_clients_version_insert AFTER INSERT ON appointment_clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading('appointment_clients', NEW.business_id))
    EXECUTE FUNCTION list_versions_count();
DROP TRIGGER services_version ON services;
CREATE CONSTRAINT TRIGGER services_version AFTER UPDATE OR DELETE ON services
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER services_version_insert AFTER INSERT ON services
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading('services', NEW.business_id))
    EXECUTE FUNCTION list_versions_count();
