-- The numbers a transaction takes at commit (the feed's sequence, 0016_…,
-- and list_versions, 0023_… and 0024_…) lock one row each, in the order
-- the transaction's changes came: two transactions of a business that
-- changed an appointment and its attendee in opposite orders would each
-- hold one row and wait for the other's. So the first of them in a
-- transaction takes a transaction-level advisory lock of the business,
-- and the rows are locked under it: the business's commits take turns
-- from their first counter on, holding no counter's row while they wait.
CREATE OR REPLACE FUNCTION events_take_seq() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    next BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('practiced commit ' || NEW.business_id, 0));
    INSERT INTO event_sequences AS s (business_id, last_seq) VALUES (NEW.business_id, 1)
        ON CONFLICT (business_id) DO UPDATE SET last_seq = s.last_seq + 1
        RETURNING s.last_seq INTO next;
    UPDATE events SET seq = next WHERE business_id = NEW.business_id AND id = NEW.id;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION list_versions_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    biz TEXT;
    counted TEXT;
    mark TEXT;
BEGIN
    FOREACH biz IN ARRAY CASE TG_OP
        WHEN 'INSERT' THEN ARRAY[NEW.business_id]
        WHEN 'DELETE' THEN ARRAY[OLD.business_id]
        ELSE ARRAY[NEW.business_id, OLD.business_id] END
    LOOP
        counted := COALESCE(current_setting('practiced.list_versions_counted', true), '');
        mark := '/' || TG_TABLE_NAME || ':' || biz || '/';
        IF position(mark IN counted) = 0 THEN
            PERFORM pg_advisory_xact_lock(hashtextextended('practiced commit ' || biz, 0));
            INSERT INTO list_versions AS v (business, list, version) VALUES (biz, TG_TABLE_NAME, 1)
                ON CONFLICT (business, list) DO UPDATE SET version = v.version + 1;
            PERFORM set_config('practiced.list_versions_counted', counted || mark, true);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
