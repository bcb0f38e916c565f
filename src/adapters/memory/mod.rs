//! In-memory adapters: a Pulp that lives in the process (the demo upstream and the fast
//! tests' upstream), an audit sink that keeps records, and a pinned clock.
//! Always compiled, because the demo and the integration tests both need them.

mod content;
mod fault;
mod faults;
mod faults_content;
mod pulp;
mod pulp_changes;
mod pulp_port;
mod pulp_state;
mod pulp_submit;
mod pulp_tasks;
mod recording;

pub mod demo;
mod demo_errata;

pub use content::{package_of, ContentChange};
pub use demo::demo_pulp;
pub use faults::{Fault, FaultyPulp, Op};
pub use pulp::{InMemoryPulp, MemoryOptions, SyncScript};
pub use pulp_changes::OUTSIDE_USER;
pub use recording::{FixedClock, RecordingAuditSink};
