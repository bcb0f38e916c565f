-- The console's events, kept before they are sent to the webhooks: one row per event, its
-- fact unique (the first replica to see a fact records it; the others find it there).
CREATE TABLE IF NOT EXISTS webhook_outbox (
    event_id TEXT PRIMARY KEY,
    fact TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    -- The event as the JSON Lines outbox keeps it.
    event TEXT NOT NULL
);

-- One delivery per event and webhook. A replica claims due rows with
-- SELECT ... FOR UPDATE SKIP LOCKED and moves due_at past the attempt (its claim), so each
-- attempt is made by one replica; a claim whose replica died lapses at due_at.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    event_id TEXT NOT NULL REFERENCES webhook_outbox (event_id) ON DELETE CASCADE,
    webhook TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'given_up')),
    -- Attempts made so far (a claim counts one).
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at TIMESTAMPTZ NOT NULL,
    last_error TEXT,
    finished_at TIMESTAMPTZ,
    PRIMARY KEY (event_id, webhook)
);

CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries (due_at) WHERE state = 'pending';
