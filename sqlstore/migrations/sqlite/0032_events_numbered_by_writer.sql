-- Every event is written with its number by the one writer, which reads
-- the business's largest once in a transaction and counts on from it
-- (recordEvents). The trigger of migration 0016 numbered an event
-- written without one; no write leaves it out, and its being there made
-- every insert of an event run it and save the pages it changed for a
-- rollback of the statement, a ninth of an event's and a busy time's
-- insert together. PostgreSQL numbers events at commit and never had it.
DROP TRIGGER IF EXISTS events_take_seq;
