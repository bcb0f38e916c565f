//! The requests waiting for an operator: open requests of an environment they may approve,
//! which they did not make and have not approved yet. The console's header shows how many
//! beside Requests, so an approver sees at once that someone waits for them.

use crate::domain::approval::check_approval;
use crate::domain::identity::Operator;
use crate::ports::RequestStoreError;

use crate::app::approvals::requests::list;
use crate::app::state::AppState;

/// How many requests `viewer` may approve now (none where the console keeps no requests).
pub async fn waiting_for(state: &AppState, viewer: &Operator) -> Result<usize, RequestStoreError> {
    let views = list(state, None, usize::MAX).await?;
    Ok(views
        .iter()
        .filter(|view| view.state.is_open())
        .filter(|view| {
            state
                .policy
                .may_approve(&view.request().environment, viewer)
                .is_ok()
        })
        .filter(|view| check_approval(&view.log, &view.state, viewer).is_ok())
        .count())
}
