-- A client's stored document (migration 0013) holds every field of the
-- record, so its row keeps beside it only the columns that keys, filters
-- and the database's own checks read: its id, its e-mail (the booking
-- page's lookup and its index), the three references to contacts and
-- referral types the foreign keys check and the client it was referred
-- by, its tags (the tag_id filter), its search text, its times and its
-- revision. Reading a client decodes its document. Writing one binds a
-- quarter of the values it did, which is most of what a bulk load of
-- clients costs the writer.
--
-- Before this migration runs, Migrate gives every client without a
-- document (a row from before migration 0013) its document from these
-- columns. SQLite builds the table again instead of dropping each
-- column (migrations/sqlite/0030_…).
ALTER TABLE clients DROP COLUMN title;
ALTER TABLE clients DROP COLUMN first_name;
ALTER TABLE clients DROP COLUMN last_name;
ALTER TABLE clients DROP COLUMN preferred_name;
ALTER TABLE clients DROP COLUMN profession;
ALTER TABLE clients DROP COLUMN date_of_birth;
ALTER TABLE clients DROP COLUMN sex;
ALTER TABLE clients DROP COLUMN gender_identity;
ALTER TABLE clients DROP COLUMN pronouns;
ALTER TABLE clients DROP COLUMN privacy_policy_consent;
ALTER TABLE clients DROP COLUMN marketing_consent;
ALTER TABLE clients DROP COLUMN no_messages;
ALTER TABLE clients DROP COLUMN consent_method;
ALTER TABLE clients DROP COLUMN medications;
ALTER TABLE clients DROP COLUMN allergies;
ALTER TABLE clients DROP COLUMN intolerances;
ALTER TABLE clients DROP COLUMN emergency_contact_relationship;
ALTER TABLE clients DROP COLUMN notes;
ALTER TABLE clients DROP COLUMN alert;
ALTER TABLE clients DROP COLUMN referral_description;
ALTER TABLE clients DROP COLUMN phone_number;
ALTER TABLE clients DROP COLUMN phone_numbers;
ALTER TABLE clients DROP COLUMN address;
ALTER TABLE clients DROP COLUMN ndis_details;
ALTER TABLE clients DROP COLUMN related_clients;
ALTER TABLE clients DROP COLUMN linked_contacts;
