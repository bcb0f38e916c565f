//! A synchronization read from an upstream's task: when it failed, upstream's own description
//! of the failure (which can name the remote's host, a proxy, a database) is logged with
//! the task and the correlation id of the work, and pages and answers say only that it
//! failed, naming the task (see [`SyncFailure::told`](crate::domain::sync::SyncFailure::told)).
//! The rule every adapter that reads sync tasks follows.

use crate::domain::sync::{sync_state, SyncState, TaskReport};
use crate::ports::correlation;

/// What `task` means for the dashboard, upstream's words about a failure logged.
pub fn sync_state_logged(task: &TaskReport) -> SyncState {
    let state = sync_state(task);
    if let SyncState::Failed(failure) = &state {
        if let Some(detail) = &failure.detail {
            let correlation_id = correlation::current().unwrap_or_default();
            tracing::info!(correlation_id, task = %task.href, detail, "a synchronization failed in Pulp");
        }
    }
    state
}
