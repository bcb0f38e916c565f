//! Synchronization: a repository's sync state (done, in progress, failed) read from
//! upstream's tasks.

pub mod state;
pub mod task;
