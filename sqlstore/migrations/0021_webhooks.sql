-- Webhook endpoints, and the durable outbox of their deliveries, which
-- the change feed fills: cursor_seq is the feed position of the
-- business's events an endpoint has been given deliveries for.
CREATE TABLE webhook_endpoints (
    business_id           TEXT NOT NULL REFERENCES businesses (id),
    id                    TEXT NOT NULL,
    url                   TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    event_types           TEXT NOT NULL,
    enabled               BOOLEAN NOT NULL,
    disabled_reason       TEXT,
    secret                TEXT NOT NULL,
    previous_secret       TEXT NOT NULL DEFAULT '',
    previous_secret_until TIMESTAMPTZ,
    failing_since         TIMESTAMPTZ,
    cursor_seq            BIGINT NOT NULL,
    created_at            TIMESTAMPTZ NOT NULL,
    updated_at            TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, id)
);
CREATE TABLE webhook_deliveries (
    business_id     TEXT NOT NULL,
    id              TEXT NOT NULL,
    endpoint_id     TEXT NOT NULL,
    event_id        TEXT NOT NULL,
    event_seq       BIGINT NOT NULL,
    event_type      TEXT NOT NULL,
    record_id       TEXT NOT NULL,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    last_status     INTEGER,
    last_error      TEXT,
    last_latency_ms INTEGER,
    last_attempt_at TIMESTAMPTZ,
    next_attempt_at TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, endpoint_id, event_id),
    FOREIGN KEY (business_id, endpoint_id) REFERENCES webhook_endpoints (business_id, id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_record ON webhook_deliveries (business_id, endpoint_id, record_id, event_seq);
