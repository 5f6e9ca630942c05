-- A busy time's series is found by its repeat_id (lockSeries), and most
-- busy times belong to none: the index kept an entry for each of them,
-- all with the same null, which every new busy time wrote. It now holds
-- the busy times of a series only. A query for a series' repeat_id
-- implies that it is not null, so SQLite and PostgreSQL still read the
-- series through it.
DROP INDEX IF EXISTS busy_times_repeat;
CREATE INDEX busy_times_repeat ON busy_times (business_id, repeat_id) WHERE repeat_id IS NOT NULL;
