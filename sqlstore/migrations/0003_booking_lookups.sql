-- The booking page finds its location by id alone (the page has no API
-- key; the location's id is in its public link), and a booking finds the
-- client with the e-mail address entered, ignoring case. Both were scans.
CREATE UNIQUE INDEX locations_by_id ON locations (id);
CREATE INDEX clients_email_lower ON clients (business_id, lower(email));
