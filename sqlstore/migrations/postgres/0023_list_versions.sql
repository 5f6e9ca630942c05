-- list_versions (see migrations/0023_…): a number per business that
-- changes in every transaction that changes any row of its clients.
--
-- A deferred trigger adds one at commit, once per transaction and
-- business: updating the business's row locks it until the transaction
-- ends, so the business's client-changing commits take turns from that
-- point and each commit's number is its predecessor's plus one, visible
-- together with its changes. Taken at commit, after every other lock of
-- the transaction, the lock cannot take part in a deadlock (as for
-- event_sequences, 0016_…). The transaction notes the businesses it has
-- counted in a setting local to it (set_config's third argument), so
-- that a load of many rows updates the row once, not once a row.
CREATE TABLE list_versions (
    business TEXT NOT NULL,
    list     TEXT NOT NULL,
    version  BIGINT NOT NULL,
    PRIMARY KEY (business, list)
);
CREATE FUNCTION list_versions_count() RETURNS trigger LANGUAGE plpgsql AS $$
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
            INSERT INTO list_versions AS v (business, list, version) VALUES (biz, TG_TABLE_NAME, 1)
                ON CONFLICT (business, list) DO UPDATE SET version = v.version + 1;
            PERFORM set_config('practiced.list_versions_counted', counted || mark, true);
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER clients_version AFTER INSERT OR UPDATE OR DELETE ON clients
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count();
