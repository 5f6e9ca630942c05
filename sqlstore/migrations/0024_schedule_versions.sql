-- The numbers of list_versions (0023_…) for what blocks practitioners'
-- time: busy times, appointments, their attendees, and services (whose
-- buffers an appointment blocks). Triggers change each in the
-- transaction of every change of one of those rows, so two reads that
-- see the same four numbers see the same schedule, which lets the store
-- keep what an availability search read (Store.Blocks).
CREATE TRIGGER busy_times_version_insert AFTER INSERT ON busy_times FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'busy_times', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER busy_times_version_update AFTER UPDATE ON busy_times FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'busy_times', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER busy_times_version_delete AFTER DELETE ON busy_times FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'busy_times', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointments_version_insert AFTER INSERT ON appointments FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'appointments', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointments_version_update AFTER UPDATE ON appointments FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'appointments', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointments_version_delete AFTER DELETE ON appointments FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'appointments', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointment_clients_version_insert AFTER INSERT ON appointment_clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'appointment_clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointment_clients_version_update AFTER UPDATE ON appointment_clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'appointment_clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER appointment_clients_version_delete AFTER DELETE ON appointment_clients FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'appointment_clients', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER services_version_insert AFTER INSERT ON services FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'services', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER services_version_update AFTER UPDATE ON services FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (NEW.business_id, 'services', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
CREATE TRIGGER services_version_delete AFTER DELETE ON services FOR EACH ROW
BEGIN
    INSERT INTO list_versions (business, list, version) VALUES (OLD.business_id, 'services', 1)
        ON CONFLICT (business, list) DO UPDATE SET version = version + 1; END;
