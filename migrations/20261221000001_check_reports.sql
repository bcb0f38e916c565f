-- Checks reported by pipelines (issue 39): every report is kept (the checks' audit), the
-- latest of each check (repository, environment, version, name) counts.
CREATE TABLE IF NOT EXISTS check_reports (
    id BIGSERIAL PRIMARY KEY,
    repository_uuid TEXT NOT NULL,
    environment TEXT NOT NULL,
    version BIGINT NOT NULL,
    name TEXT NOT NULL,
    reported_at TIMESTAMPTZ NOT NULL,
    -- The report as JSON (domain::check::report::CheckReport).
    report TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS check_reports_by_check
    ON check_reports (repository_uuid, version, environment, name, reported_at DESC, id DESC);

-- Automatic promotions claimed: the primary key lets one replica claim each.
CREATE TABLE IF NOT EXISTS promotion_claims (
    repository_uuid TEXT NOT NULL,
    environment TEXT NOT NULL,
    version BIGINT NOT NULL,
    claimed_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (repository_uuid, environment, version)
);
