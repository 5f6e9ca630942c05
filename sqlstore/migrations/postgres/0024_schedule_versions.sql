-- The numbers of list_versions for what blocks practitioners' time (see
-- migrations/0024_…), one a transaction and table, at commit, by the
-- function of 0023_….
CREATE CONSTRAINT TRIGGER busy_times_version AFTER INSERT OR UPDATE OR DELETE ON busy_times
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER appointments_version AFTER INSERT OR UPDATE OR DELETE ON appointments
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER appointment_clients_version AFTER INSERT OR UPDATE OR DELETE ON appointment_clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
CREATE CONSTRAINT TRIGGER services_version AFTER INSERT OR UPDATE OR DELETE ON services
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
