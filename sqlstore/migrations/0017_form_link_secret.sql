-- A form's hosted page is opened with its id and a secret that only keys
-- that can write are shown, since every key can read the id. Forms made
-- before get a random secret each.
ALTER TABLE forms ADD COLUMN link_secret TEXT NOT NULL DEFAULT '';
UPDATE forms SET link_secret = lower(hex(randomblob(16)));
