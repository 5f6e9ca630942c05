-- The change feed is in the order of seq, a number per business that
-- each event takes as it is written, so that a reader resuming after an
-- event never skips one committed later with a smaller id. SQLite has
-- one writer at a time, so the next number is the business's largest
-- plus one, taken by a trigger as the event is inserted. PostgreSQL
-- takes it at commit instead (migrations/postgres/0015_…). The
-- trigger's one statement ends on the line of its END, as migrations
-- split on lines that end with a semicolon.
ALTER TABLE events ADD COLUMN seq BIGINT;
UPDATE events SET seq = n.seq
    FROM (SELECT business_id, id, ROW_NUMBER() OVER (PARTITION BY business_id ORDER BY id) AS seq FROM events) AS n
    WHERE events.business_id = n.business_id AND events.id = n.id;
CREATE UNIQUE INDEX events_seq ON events (business_id, seq);
DROP INDEX events_record_type;
DROP INDEX events_type;
CREATE INDEX events_record_type ON events (business_id, record_type, seq);
CREATE INDEX events_type ON events (business_id, type, seq);
CREATE TRIGGER events_take_seq AFTER INSERT ON events FOR EACH ROW WHEN NEW.seq IS NULL
BEGIN
    UPDATE events SET seq = (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE business_id = NEW.business_id)
        WHERE business_id = NEW.business_id AND id = NEW.id; END;
