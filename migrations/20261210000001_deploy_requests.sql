-- Four-eyes approval requests, shared by the replicas: a request (immutable once made) and
-- what happened to it, one row per event. An event is appended at seq = the events seen + 1
-- (1-based), so of two replicas appending after the same events, the primary key lets one.
CREATE TABLE IF NOT EXISTS deploy_requests (
    id TEXT PRIMARY KEY,
    repository_uuid TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    -- The request as JSON (domain::ApprovalRequest).
    request TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS deploy_requests_by_repository
    ON deploy_requests (repository_uuid, created_at DESC);

CREATE TABLE IF NOT EXISTS deploy_request_events (
    request_id TEXT NOT NULL REFERENCES deploy_requests (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    recorded_at TIMESTAMPTZ NOT NULL,
    -- The event as JSON (domain::RequestEvent).
    event TEXT NOT NULL,
    PRIMARY KEY (request_id, seq)
);
