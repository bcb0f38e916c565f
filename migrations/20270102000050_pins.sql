-- Pins (issue 50): what a rollback leaves behind, one row per fact (set, lifted), in the
-- order kept; the last row of a pin decides whether it holds. Rows are never updated: the
-- table is the pins' history. The record is the JSON the file store writes as a line
-- (adapters::shared::pin_codec).
CREATE TABLE IF NOT EXISTS pin_records (
    id BIGSERIAL PRIMARY KEY,
    -- `<repository uuid>/<environment>`.
    pin_key TEXT NOT NULL,
    repository_uuid TEXT NOT NULL,
    record TEXT NOT NULL
);

CREATE INDEX IF NOT EXISTS pin_records_by_pin ON pin_records (pin_key, id);
CREATE INDEX IF NOT EXISTS pin_records_by_repository ON pin_records (repository_uuid, id);
