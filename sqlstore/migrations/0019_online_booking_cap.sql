-- The most online bookings one e-mail address may make at a location in
-- 24 hours; 0 is no limit.
ALTER TABLE locations ADD COLUMN online_bookings_per_email_per_day INTEGER NOT NULL DEFAULT 3;
-- Every location's stored document gains the field: the documents are
-- written again from the columns when the migrations finish.
UPDATE locations SET doc = NULL;
