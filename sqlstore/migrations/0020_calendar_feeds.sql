-- A practitioner's secret calendar feed: the hash of its secret, which
-- alone reaches it.
CREATE TABLE calendar_feeds (
    business_id     TEXT NOT NULL REFERENCES businesses (id),
    practitioner_id TEXT NOT NULL,
    secret_hash     TEXT NOT NULL UNIQUE,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, practitioner_id),
    FOREIGN KEY (business_id, practitioner_id) REFERENCES practitioners (business_id, id)
);
