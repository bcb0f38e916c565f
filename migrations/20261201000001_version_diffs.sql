-- Diffs between two repository versions, shared by the replicas. Versions never change, so
-- a row is never updated; the oldest rows are deleted to keep the bodies within
-- diffs.max_disk_mb.
CREATE TABLE IF NOT EXISTS version_diffs (
    -- '' when the diff is from an empty repository (nothing deployed yet).
    from_href TEXT NOT NULL,
    to_href TEXT NOT NULL,
    -- The key and the diff as gzip'd JSON (the same bytes as a file of the file store).
    body BYTEA NOT NULL,
    bytes BIGINT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (from_href, to_href)
);

CREATE INDEX IF NOT EXISTS version_diffs_by_age ON version_diffs (created_at DESC);
