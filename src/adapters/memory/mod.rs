//! In-memory adapters: a Pulp that lives in the process (the demo upstream and the fast
//! tests' upstream), an audit sink that keeps records, an event outbox, requests, schedules,
//! checks, evidence, sessions and edge Pulps, and a pinned clock.
//! Always compiled, because the demo and the integration tests both need them.

mod advisory_units;
mod changes;
mod checks;
mod content;
pub mod demo;
mod edge_states;
mod edges;
mod evidence;
mod faults;
mod in_memory;
mod outbox;
mod pins;
mod port;
mod recording;
mod requests;
mod schedules;
mod sessions;
mod state;
mod submit;
mod tasks;

pub use changes::OUTSIDE_USER;
pub use checks::MemoryCheckStore;
pub use content::{package_of, ContentChange};
pub use demo::demo_pulp;
pub use edge_states::MemoryEdgeStates;
pub use edges::InMemoryEdges;
pub use evidence::{served_repomd, MemoryEvidenceStore};
pub use faults::{Fault, FaultyPulp, Op};
pub use in_memory::{InMemoryPulp, MemoryOptions, SyncScript};
pub use outbox::MemoryOutbox;
pub use pins::MemoryPinStore;
pub use recording::{FixedClock, ManualClock, RecordingAuditSink};
pub use requests::MemoryRequestStore;
pub use schedules::MemoryScheduleStore;
pub use sessions::MemorySessionStore;
