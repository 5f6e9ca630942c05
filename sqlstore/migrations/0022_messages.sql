-- Messages to clients: how long before its start a service's
-- appointments are reminded of (0 for none), clients who want no
-- messages, how long before the start a client may cancel online, the
-- secret of each attendance's own page (not served yet), the SEQUENCE
-- of its calendar invitations, and the queue of messages itself.
ALTER TABLE services ADD COLUMN reminder_minutes INTEGER NOT NULL DEFAULT 1440;
ALTER TABLE clients ADD COLUMN no_messages BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE locations ADD COLUMN online_cancellation_hours INTEGER NOT NULL DEFAULT 24;
ALTER TABLE appointment_clients ADD COLUMN page_secret TEXT;
ALTER TABLE appointment_clients ADD COLUMN message_sequence INTEGER NOT NULL DEFAULT 0;
UPDATE services SET doc = NULL;
UPDATE clients SET doc = NULL;
UPDATE locations SET doc = NULL;
CREATE TABLE messages (
    business_id           TEXT NOT NULL REFERENCES businesses (id),
    id                    TEXT NOT NULL,
    kind                  TEXT NOT NULL,
    status                TEXT NOT NULL,
    cause                 TEXT NOT NULL,
    to_address            TEXT NOT NULL,
    reply_to              TEXT NOT NULL DEFAULT '',
    from_name             TEXT NOT NULL DEFAULT '',
    client_id             TEXT NOT NULL,
    appointment_client_id TEXT,
    form_id               TEXT,
    subject               TEXT NOT NULL,
    text                  TEXT NOT NULL,
    html                  TEXT NOT NULL,
    ics                   TEXT NOT NULL DEFAULT '',
    link                  TEXT NOT NULL DEFAULT '',
    send_after            TIMESTAMPTZ NOT NULL,
    next_attempt_at       TIMESTAMPTZ,
    attempts              INTEGER NOT NULL DEFAULT 0,
    last_error            TEXT,
    sent_at               TIMESTAMPTZ,
    created_at            TIMESTAMPTZ NOT NULL,
    updated_at            TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, cause)
);
CREATE INDEX messages_due ON messages (status, next_attempt_at);
CREATE INDEX messages_attendance ON messages (business_id, appointment_client_id);
CREATE INDEX messages_updated ON messages (business_id, updated_at);
