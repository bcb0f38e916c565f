-- The signed evidence of promotions: one row per deploy that moved something, its DSSE
-- envelope as served (JSON), found by deploy and by repository and environment (the chain).
CREATE TABLE IF NOT EXISTS evidence (
    id BIGSERIAL PRIMARY KEY,
    deploy_id TEXT NOT NULL UNIQUE,
    repository_uuid TEXT NOT NULL,
    environment TEXT NOT NULL,
    recorded_at TIMESTAMPTZ NOT NULL,
    envelope TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS evidence_by_subject ON evidence (repository_uuid, environment, id DESC);
