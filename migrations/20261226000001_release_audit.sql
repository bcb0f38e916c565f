-- The audit lines of release promotions: one row per promotion, written once it ended (its
-- members' deploys are rows of deploy_audit, whose line names the release).
CREATE TABLE IF NOT EXISTS release_audit (
    id BIGSERIAL PRIMARY KEY,
    release_id TEXT NOT NULL UNIQUE,
    release_name TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    environment TEXT NOT NULL,
    -- The same record as the JSON Lines sink writes it.
    line TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS release_audit_by_release ON release_audit (release_name, id DESC);
