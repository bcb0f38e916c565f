//! Edges: the edge Pulps that copy the central Pulp's distributions through Pulp's own
//! replication (an `upstream-pulp` on each edge), and what each of them serves.
//!
//! What is compared is the digest of the published metadata (`repodata/repomd.xml`), read
//! from each content app at the distribution's base path: version numbers differ between
//! Pulps and mean nothing here. One concept per file: `name` (an edge's configured name),
//! `digest` (the metadata's sha256), `replication` (an edge's replication task and how it
//! ended), `state` (what an edge serves for one distribution, judged from what was read),
//! `lag` (how long an edge has been behind), `backoff` (when an edge is tried again), `tally`
//! (how many edges serve what production serves, in an operator's words).

pub mod backoff;
pub mod digest;
pub mod lag;
pub mod name;
pub mod replication;
pub mod state;
pub mod tally;

pub use backoff::EdgeBackoff;
pub use digest::{InvalidDigest, MetadataDigest};
pub use lag::lag;
pub use name::{EdgeName, InvalidEdgeName};
pub use replication::{Replication, ReplicationEnd, ReplicationTask};
pub use state::{judge, EdgeRead, EdgeState, EdgeStateKind};
pub use tally::EdgeTally;
