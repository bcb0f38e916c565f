-- The CVE index (CVE -> advisory ids, built from the advisories' references), shared by the
-- replicas: one row, the whole index as JSON, replaced at each refresh. Any replica may
-- refresh it; an index refreshed by two at once holds what both read (advisories are
-- immutable), so the last write is as good as the other.
CREATE TABLE IF NOT EXISTS cve_index (
    singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    body TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
