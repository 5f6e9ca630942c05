-- The change feed is in the order of seq, a number per business that
-- each event takes when its transaction commits, so that an event
-- becomes visible only after every event before it in the feed.
--
-- event_sequences keeps each business's last number. A deferred trigger
-- takes the next one at commit: updating the business's row locks it
-- until the transaction ends, so the business's commits take turns from
-- that point and each sees the number its predecessor took. Taking the
-- lock at commit, after every other lock of the transaction, means a
-- transaction holding it never waits for another lock, so it cannot
-- take part in a deadlock; taken at the first event instead, it would
-- deadlock with a transaction that locked a row first (an appointment's
-- client, say) and then wrote an event. Until its commit an event's seq
-- is null, visible to its own transaction only.
CREATE TABLE event_sequences (
    business_id TEXT PRIMARY KEY REFERENCES businesses (id),
    last_seq    BIGINT NOT NULL
);
ALTER TABLE events ADD COLUMN seq BIGINT;
UPDATE events SET seq = n.seq
    FROM (SELECT business_id, id, ROW_NUMBER() OVER (PARTITION BY business_id ORDER BY id) AS seq FROM events) AS n
    WHERE events.business_id = n.business_id AND events.id = n.id;
INSERT INTO event_sequences (business_id, last_seq) SELECT business_id, MAX(seq) FROM events GROUP BY business_id;
CREATE UNIQUE INDEX events_seq ON events (business_id, seq);
DROP INDEX events_record_type;
DROP INDEX events_type;
CREATE INDEX events_record_type ON events (business_id, record_type, seq);
CREATE INDEX events_type ON events (business_id, type, seq);
CREATE FUNCTION events_take_seq() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next BIGINT;
BEGIN
    INSERT INTO event_sequences AS s (business_id, last_seq) VALUES (NEW.business_id, 1)
        ON CONFLICT (business_id) DO UPDATE SET last_seq = s.last_seq + 1
        RETURNING s.last_seq INTO next;
    UPDATE events SET seq = next WHERE business_id = NEW.business_id AND id = NEW.id;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER events_take_seq AFTER INSERT ON events
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION events_take_seq();
