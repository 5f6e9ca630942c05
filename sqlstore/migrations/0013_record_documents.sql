-- Each record keeps its JSON document as the API answers it, written with
-- its columns, so that lists answer without decoding and encoding every
-- record. Rows from before this migration get theirs from fillDocs
-- (migrate.go) right after migrating.
ALTER TABLE clients ADD COLUMN doc TEXT;
ALTER TABLE contacts ADD COLUMN doc TEXT;
ALTER TABLE locations ADD COLUMN doc TEXT;
ALTER TABLE practitioners ADD COLUMN doc TEXT;
ALTER TABLE services ADD COLUMN doc TEXT;
ALTER TABLE cases ADD COLUMN doc TEXT;
ALTER TABLE client_packages ADD COLUMN doc TEXT;
ALTER TABLE busy_times ADD COLUMN doc TEXT;
ALTER TABLE form_templates ADD COLUMN doc TEXT;
ALTER TABLE tags ADD COLUMN doc TEXT;
ALTER TABLE referral_types ADD COLUMN doc TEXT;
ALTER TABLE cancellation_reasons ADD COLUMN doc TEXT;
ALTER TABLE busy_time_types ADD COLUMN doc TEXT;
