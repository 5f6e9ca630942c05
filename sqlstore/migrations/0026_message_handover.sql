-- When a worker began to hand a message to the mail server: set just
-- before the end of the message's data is sent, cleared by the outcome.
-- A message still marked when its claim lapses was handed over by a
-- process that ended before it could record the answer: it counts as
-- sent and is not sent again.
ALTER TABLE messages ADD COLUMN handed_over_at TIMESTAMPTZ;
