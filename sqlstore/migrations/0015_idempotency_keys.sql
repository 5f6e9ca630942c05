-- The Idempotency-Keys of POST requests, one per API key and key: the
-- primary key decides which of two concurrent requests runs. A claim
-- without an answer (status NULL) holds the key until lease_until; an
-- answered key is replayed until created_at plus a day. body is BYTEA,
-- which SQLite keeps as the blob it is given.
CREATE TABLE idempotency_keys (
    api_key_id      TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    request_hash    TEXT NOT NULL,
    claim_id        TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    lease_until     TIMESTAMPTZ NOT NULL,
    status          INTEGER,
    header          TEXT,
    body            BYTEA,
    PRIMARY KEY (api_key_id, idempotency_key)
);

CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
