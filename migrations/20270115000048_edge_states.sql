-- Edges (issue 48): what the console knows of the edge Pulps that must outlive a restart and
-- be shared by the replicas: per distribution the edges copy, what production serves and
-- served before; per edge and distribution, its state; per edge, its last replication and
-- next retry. One row per key (`mark:<distribution>`, `cell:<edge>:<distribution>`,
-- `run:<edge>`), the record in the written form the JSON Lines store uses.
CREATE TABLE IF NOT EXISTS edge_states (
    key TEXT PRIMARY KEY,
    record JSONB NOT NULL,
    written TIMESTAMPTZ NOT NULL DEFAULT now()
);
