-- Scheduled deploys, shared by the replicas: one row per schedule, its JSON replaced as it
-- goes from waiting to running (claimed) to its end. A replacement is made only over the
-- revision the writer read (compare and swap), so of two replicas claiming the same schedule
-- one succeeds.
CREATE TABLE IF NOT EXISTS deploy_schedules (
    id TEXT PRIMARY KEY,
    repository_uuid TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    run_at TIMESTAMPTZ NOT NULL,
    -- waiting, running, done, failed, cancelled or refused.
    state TEXT NOT NULL,
    revision BIGINT NOT NULL,
    -- The schedule as JSON (domain::Schedule).
    schedule TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS deploy_schedules_open
    ON deploy_schedules (run_at) WHERE state IN ('waiting', 'running');

CREATE INDEX IF NOT EXISTS deploy_schedules_by_repository
    ON deploy_schedules (repository_uuid, created_at DESC);
