-- The whole data model. Every table of business records leads its primary
-- key and every index with business_id, so one business's rows sit
-- together and the schema can be distributed by business_id. Foreign keys
-- include business_id, so a record can only refer to records of its own
-- business. Timestamps are UTC; in SQLite they are RFC 3339 text, which
-- sorts as time does.

CREATE TABLE businesses (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE api_keys (
    id          TEXT PRIMARY KEY,
    business_id TEXT NOT NULL REFERENCES businesses (id),
    token_hash  TEXT NOT NULL UNIQUE,
    read_only   BOOLEAN NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ
);

CREATE TABLE locations (
    business_id                TEXT NOT NULL REFERENCES businesses (id),
    id                         TEXT NOT NULL,
    name                       TEXT NOT NULL,
    description                TEXT NOT NULL DEFAULT '',
    email                      TEXT NOT NULL DEFAULT '',
    phone                      TEXT NOT NULL DEFAULT '',
    timezone                   TEXT NOT NULL,
    online_appointment_booking BOOLEAN NOT NULL DEFAULT FALSE,
    online_class_booking       BOOLEAN NOT NULL DEFAULT FALSE,
    tax_identifier             TEXT NOT NULL DEFAULT '',
    tax_identifier_label       TEXT NOT NULL DEFAULT '',
    ndis_number                TEXT NOT NULL DEFAULT '',
    logo_id                    TEXT,
    image_id                   TEXT,
    opening_hours              TEXT NOT NULL,
    address                    TEXT NOT NULL,
    created_at                 TIMESTAMPTZ NOT NULL,
    updated_at                 TIMESTAMPTZ NOT NULL,
    archived_at                TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE services (
    business_id          TEXT NOT NULL REFERENCES businesses (id),
    id                   TEXT NOT NULL,
    name                 TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    duration             INTEGER NOT NULL,
    price_cents          INTEGER NOT NULL DEFAULT 0,
    buffer_before        INTEGER NOT NULL DEFAULT 0,
    buffer_after         INTEGER NOT NULL DEFAULT 0,
    max_clients          INTEGER NOT NULL DEFAULT 1,
    min_notice           INTEGER NOT NULL DEFAULT 0,
    booking_horizon_days INTEGER NOT NULL DEFAULT 90,
    online_booking       BOOLEAN NOT NULL DEFAULT FALSE,
    color                TEXT NOT NULL DEFAULT '',
    created_at           TIMESTAMPTZ NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    archived_at          TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE service_locations (
    business_id TEXT NOT NULL,
    service_id  TEXT NOT NULL,
    location_id TEXT NOT NULL,
    PRIMARY KEY (business_id, service_id, location_id),
    FOREIGN KEY (business_id, service_id) REFERENCES services (business_id, id),
    FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id)
);
CREATE INDEX service_locations_location ON service_locations (business_id, location_id);

CREATE TABLE practitioners (
    business_id   TEXT NOT NULL REFERENCES businesses (id),
    id            TEXT NOT NULL,
    title         TEXT NOT NULL DEFAULT '',
    first_name    TEXT NOT NULL,
    last_name     TEXT NOT NULL,
    display_name  TEXT NOT NULL DEFAULT '',
    designation   TEXT NOT NULL DEFAULT '',
    email         TEXT NOT NULL DEFAULT '',
    phone         TEXT NOT NULL DEFAULT '',
    working_hours TEXT NOT NULL DEFAULT '[]',
    exceptions    TEXT NOT NULL DEFAULT '[]',
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL,
    archived_at   TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE practitioner_locations (
    business_id     TEXT NOT NULL,
    practitioner_id TEXT NOT NULL,
    location_id     TEXT NOT NULL,
    PRIMARY KEY (business_id, practitioner_id, location_id),
    FOREIGN KEY (business_id, practitioner_id) REFERENCES practitioners (business_id, id),
    FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id)
);
CREATE INDEX practitioner_locations_location ON practitioner_locations (business_id, location_id);

CREATE TABLE practitioner_services (
    business_id     TEXT NOT NULL,
    practitioner_id TEXT NOT NULL,
    service_id      TEXT NOT NULL,
    PRIMARY KEY (business_id, practitioner_id, service_id),
    FOREIGN KEY (business_id, practitioner_id) REFERENCES practitioners (business_id, id),
    FOREIGN KEY (business_id, service_id) REFERENCES services (business_id, id)
);

-- Tags, referral types, cancellation reasons and busy time types share
-- one shape; each has its own table so references can be checked.
CREATE TABLE tags (
    business_id TEXT NOT NULL REFERENCES businesses (id),
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    color       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    archived_at TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE referral_types (
    business_id TEXT NOT NULL REFERENCES businesses (id),
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    color       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    archived_at TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE cancellation_reasons (
    business_id TEXT NOT NULL REFERENCES businesses (id),
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    color       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    archived_at TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE busy_time_types (
    business_id TEXT NOT NULL REFERENCES businesses (id),
    id          TEXT NOT NULL,
    name        TEXT NOT NULL,
    color       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    archived_at TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

-- Nested lists that are always read and written whole with their owner
-- (phone numbers, addresses, tag ids) are JSON text columns.
CREATE TABLE contacts (
    business_id    TEXT NOT NULL REFERENCES businesses (id),
    id             TEXT NOT NULL,
    type           TEXT NOT NULL,
    title          TEXT NOT NULL DEFAULT '',
    first_name     TEXT NOT NULL DEFAULT '',
    last_name      TEXT NOT NULL DEFAULT '',
    preferred_name TEXT NOT NULL DEFAULT '',
    profession     TEXT NOT NULL DEFAULT '',
    company        TEXT NOT NULL DEFAULT '',
    email          TEXT NOT NULL DEFAULT '',
    notes          TEXT NOT NULL DEFAULT '',
    phone_numbers  TEXT NOT NULL DEFAULT '[]',
    address        TEXT NOT NULL,
    tag_ids        TEXT NOT NULL DEFAULT '[]',
    search         TEXT NOT NULL DEFAULT '',
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL,
    archived_at    TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE clients (
    business_id                    TEXT NOT NULL REFERENCES businesses (id),
    id                             TEXT NOT NULL,
    title                          TEXT NOT NULL DEFAULT '',
    first_name                     TEXT NOT NULL,
    last_name                      TEXT NOT NULL,
    preferred_name                 TEXT NOT NULL DEFAULT '',
    profession                     TEXT NOT NULL DEFAULT '',
    email                          TEXT NOT NULL DEFAULT '',
    date_of_birth                  TEXT,
    sex                            TEXT NOT NULL DEFAULT '',
    gender_identity                TEXT NOT NULL DEFAULT '',
    pronouns                       TEXT NOT NULL DEFAULT '',
    privacy_policy_consent         TEXT,
    marketing_consent              TEXT,
    consent_method                 TEXT,
    medications                    TEXT NOT NULL DEFAULT '[]',
    allergies                      TEXT NOT NULL DEFAULT '[]',
    intolerances                   TEXT NOT NULL DEFAULT '[]',
    emergency_contact_id           TEXT,
    emergency_contact_relationship TEXT NOT NULL DEFAULT '',
    invoice_contact_id             TEXT,
    notes                          TEXT NOT NULL DEFAULT '',
    alert                          TEXT NOT NULL DEFAULT '',
    referral_type_id               TEXT,
    referral_description           TEXT NOT NULL DEFAULT '',
    referred_by_id                 TEXT,
    phone_number                   TEXT NOT NULL DEFAULT '',
    phone_numbers                  TEXT NOT NULL DEFAULT '[]',
    address                        TEXT NOT NULL,
    tag_ids                        TEXT NOT NULL DEFAULT '[]',
    ndis_details                   TEXT,
    related_clients                TEXT NOT NULL DEFAULT '[]',
    linked_contacts                TEXT NOT NULL DEFAULT '[]',
    search                         TEXT NOT NULL DEFAULT '',
    created_at                     TIMESTAMPTZ NOT NULL,
    updated_at                     TIMESTAMPTZ NOT NULL,
    archived_at                    TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, emergency_contact_id) REFERENCES contacts (business_id, id),
    FOREIGN KEY (business_id, invoice_contact_id) REFERENCES contacts (business_id, id),
    FOREIGN KEY (business_id, referral_type_id) REFERENCES referral_types (business_id, id)
);
CREATE INDEX clients_email ON clients (business_id, email);
CREATE INDEX clients_updated ON clients (business_id, updated_at);

CREATE TABLE cases (
    business_id TEXT NOT NULL,
    id          TEXT NOT NULL,
    client_id   TEXT NOT NULL,
    name        TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open',
    notes       TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    archived_at TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, client_id) REFERENCES clients (business_id, id)
);

CREATE TABLE client_packages (
    business_id    TEXT NOT NULL,
    id             TEXT NOT NULL,
    client_id      TEXT NOT NULL,
    name           TEXT NOT NULL,
    sessions_total INTEGER NOT NULL,
    sessions_used  INTEGER NOT NULL DEFAULT 0,
    expires_on     TEXT,
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL,
    archived_at    TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, client_id) REFERENCES clients (business_id, id)
);

CREATE TABLE appointments (
    business_id     TEXT NOT NULL,
    id              TEXT NOT NULL,
    location_id     TEXT NOT NULL,
    practitioner_id TEXT NOT NULL,
    service_id      TEXT,
    starts_at       TIMESTAMPTZ NOT NULL,
    ends_at         TIMESTAMPTZ NOT NULL,
    max_clients     INTEGER NOT NULL DEFAULT 1,
    notes           TEXT NOT NULL DEFAULT '',
    cancelled_at    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    archived_at     TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id),
    FOREIGN KEY (business_id, practitioner_id) REFERENCES practitioners (business_id, id),
    FOREIGN KEY (business_id, service_id) REFERENCES services (business_id, id)
);
CREATE INDEX appointments_practitioner_time ON appointments (business_id, practitioner_id, starts_at);

CREATE TABLE appointment_clients (
    business_id            TEXT NOT NULL,
    id                     TEXT NOT NULL,
    appointment_id         TEXT NOT NULL,
    client_id              TEXT NOT NULL,
    case_id                TEXT,
    client_package_id      TEXT,
    status                 TEXT NOT NULL DEFAULT 'booked',
    do_not_invoice         BOOLEAN NOT NULL DEFAULT FALSE,
    note                   TEXT NOT NULL DEFAULT '',
    confirmed              BOOLEAN NOT NULL DEFAULT FALSE,
    confirmed_at           TIMESTAMPTZ,
    cancellation_reason_id TEXT,
    cancellation_note      TEXT NOT NULL DEFAULT '',
    cancelled_at           TIMESTAMPTZ,
    arrived_at             TIMESTAMPTZ,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL,
    archived_at            TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, appointment_id) REFERENCES appointments (business_id, id),
    FOREIGN KEY (business_id, client_id) REFERENCES clients (business_id, id),
    FOREIGN KEY (business_id, case_id) REFERENCES cases (business_id, id),
    FOREIGN KEY (business_id, client_package_id) REFERENCES client_packages (business_id, id),
    FOREIGN KEY (business_id, cancellation_reason_id) REFERENCES cancellation_reasons (business_id, id)
);
CREATE INDEX appointment_clients_appointment ON appointment_clients (business_id, appointment_id);
CREATE INDEX appointment_clients_client ON appointment_clients (business_id, client_id);

CREATE TABLE form_templates (
    business_id            TEXT NOT NULL REFERENCES businesses (id),
    id                     TEXT NOT NULL,
    name                   TEXT NOT NULL,
    color                  TEXT NOT NULL DEFAULT '',
    completion_message     TEXT NOT NULL DEFAULT '',
    prefill_client_fields  BOOLEAN NOT NULL DEFAULT FALSE,
    override_client_fields BOOLEAN NOT NULL DEFAULT FALSE,
    content                TEXT NOT NULL,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL,
    archived_at            TIMESTAMPTZ,
    PRIMARY KEY (business_id, id)
);

CREATE TABLE forms (
    business_id            TEXT NOT NULL,
    id                     TEXT NOT NULL,
    client_id              TEXT NOT NULL,
    location_id            TEXT,
    form_template_id       TEXT NOT NULL,
    appointment_client_id  TEXT,
    name                   TEXT NOT NULL,
    color                  TEXT NOT NULL DEFAULT '',
    completion_message     TEXT NOT NULL DEFAULT '',
    prefill_client_fields  BOOLEAN NOT NULL DEFAULT FALSE,
    override_client_fields BOOLEAN NOT NULL DEFAULT FALSE,
    status                 TEXT NOT NULL DEFAULT 'not_started',
    sent_status            TEXT NOT NULL DEFAULT 'not_sent',
    content                TEXT NOT NULL,
    sent_at                TIMESTAMPTZ,
    viewed_at              TIMESTAMPTZ,
    completed_at           TIMESTAMPTZ,
    created_at             TIMESTAMPTZ NOT NULL,
    updated_at             TIMESTAMPTZ NOT NULL,
    archived_at            TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, client_id) REFERENCES clients (business_id, id),
    FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id),
    FOREIGN KEY (business_id, form_template_id) REFERENCES form_templates (business_id, id),
    FOREIGN KEY (business_id, appointment_client_id) REFERENCES appointment_clients (business_id, id)
);

CREATE TABLE busy_times (
    business_id       TEXT NOT NULL,
    id                TEXT NOT NULL,
    location_id       TEXT NOT NULL,
    practitioner_id   TEXT NOT NULL,
    starts_at         TIMESTAMPTZ NOT NULL,
    ends_at           TIMESTAMPTZ NOT NULL,
    name              TEXT,
    note              TEXT,
    busy_time_type_id TEXT,
    room_id           TEXT,
    vehicle_id        TEXT,
    resource_ids      TEXT NOT NULL DEFAULT '[]',
    repeat_id         TEXT,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL,
    archived_at       TIMESTAMPTZ,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, location_id) REFERENCES locations (business_id, id),
    FOREIGN KEY (business_id, practitioner_id) REFERENCES practitioners (business_id, id),
    FOREIGN KEY (business_id, busy_time_type_id) REFERENCES busy_time_types (business_id, id)
);
CREATE INDEX busy_times_practitioner_time ON busy_times (business_id, practitioner_id, starts_at);
CREATE INDEX busy_times_repeat ON busy_times (business_id, repeat_id);

-- The change feed: one row per change, written in the transaction that
-- made the change.
CREATE TABLE events (
    business_id TEXT NOT NULL REFERENCES businesses (id),
    id          TEXT NOT NULL,
    type        TEXT NOT NULL,
    record_type TEXT NOT NULL,
    record_id   TEXT NOT NULL,
    data        TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (business_id, id)
);
CREATE INDEX events_record ON events (business_id, record_id);
