-- A load (SeedAll) counts each list it loads rows into once, as every
-- write does, by the deferred triggers of 0023_… and 0024_…, but its
-- rows after the first no longer queue a trigger event each. The
-- triggers ran list_versions_count at commit once for every row
-- inserted, to find the business counted already after the first: for
-- a million clients that cost a load 4–5 s. Before its second batch of
-- rows of a table a load marks the table and business
-- (practiced.loading, 0034_…), and the trigger on inserts skips a
-- marked one; the same for each table a list version counts. Updates
-- and deletes, and every write outside a load, are counted as before.
DO $$
DECLARE
    tbl TEXT;
BEGIN
    FOREACH tbl IN ARRAY ARRAY['clients', 'busy_times', 'appointments', 'appointment_clients', 'services'] LOOP
        EXECUTE format('DROP TRIGGER %I ON %I', tbl || '_version', tbl);
        EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER UPDATE OR DELETE ON %I
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_versions_count()', tbl || '_version', tbl);
        EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT ON %I
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NOT practiced_loading(%L, NEW.business_id))
            EXECUTE FUNCTION list_versions_count()', tbl || '_version_insert', tbl, tbl);
    END LOOP;
END
$$;
