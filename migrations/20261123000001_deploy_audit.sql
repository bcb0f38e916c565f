-- The audit log of deploys: one row per line (started, then the outcome), linked by deploy_id.
CREATE TABLE IF NOT EXISTS deploy_audit (
    id BIGSERIAL PRIMARY KEY,
    deploy_id TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    operator TEXT NOT NULL,
    repository_uuid TEXT NOT NULL,
    repository_name TEXT NOT NULL,
    previous_version BIGINT,
    target_version BIGINT NOT NULL,
    distribution TEXT NOT NULL,
    publication TEXT,
    outcome TEXT NOT NULL CHECK (outcome IN ('started', 'deployed', 'failed')),
    production_changed TEXT CHECK (production_changed IN ('yes', 'no', 'unknown')),
    error TEXT,
    -- The same record as the JSON Lines sink writes it, for export.
    line TEXT NOT NULL,
    UNIQUE (deploy_id, outcome)
);

CREATE INDEX IF NOT EXISTS deploy_audit_by_repository ON deploy_audit (repository_uuid, id DESC);
