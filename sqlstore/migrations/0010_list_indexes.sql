-- Indexes for the list filters that pick records of one client, and for
-- the change feed's filters on a record type or an event type.
CREATE INDEX cases_client ON cases (business_id, client_id);
CREATE INDEX client_packages_client ON client_packages (business_id, client_id);
CREATE INDEX forms_client ON forms (business_id, client_id);
CREATE INDEX events_record_type ON events (business_id, record_type, id);
CREATE INDEX events_type ON events (business_id, type, id);
