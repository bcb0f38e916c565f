//! Synchronization: a repository's sync state (done, in progress, failed) read from
//! upstream's tasks.

pub mod state;
pub mod task;

pub use state::{short_reason, SyncFailure, SyncProgress, SyncState};
pub use task::{sync_state, ProgressReport, TaskReport, TaskState};
