-- How many times a worker has claimed the message: the claim a worker
-- holds is its number, and only the latest claim's attempt may hand the
-- message over or record an outcome.
ALTER TABLE messages ADD COLUMN claims INTEGER NOT NULL DEFAULT 0;
