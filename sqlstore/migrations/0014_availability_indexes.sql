-- Finding free slots reads, for the practitioners of a search and a
-- window, the spans of their live busy times and appointments, and the
-- attendees of each appointment that are not cancelled. These partial
-- indexes hold every column those reads name, the ones their conditions
-- test included, so the reads never visit the tables.
CREATE INDEX busy_times_live_spans ON busy_times
    (business_id, practitioner_id, starts_at, ends_at, archived_at)
    WHERE archived_at IS NULL;
CREATE INDEX appointments_live_spans ON appointments
    (business_id, practitioner_id, starts_at, ends_at, id, location_id, service_id, max_clients, cancelled_at, archived_at)
    WHERE cancelled_at IS NULL AND archived_at IS NULL;
CREATE INDEX appointment_clients_attending ON appointment_clients
    (business_id, appointment_id, status)
    WHERE status <> 'cancelled';
