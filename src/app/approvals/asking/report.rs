//! A request's last event, sent once it has ended (made stale by a new ask, approved and
//! run, rejected, cancelled, expired).

use crate::domain::approval::{RequestLog, RequestState};
use crate::domain::event::EventData;

use crate::app::events;
use crate::app::state::AppState;

/// Sends the request's last event, for the state `log` folds to with its end appended
/// (nothing while it has not ended).
pub(crate) async fn report(state: &AppState, log: &RequestLog, needed: u32) {
    let now = state.clock.now().await;
    let ended: RequestState = log.state(now, needed);
    if let Some(data) = EventData::request_ended(&log.request, &ended) {
        events::emit(state, data).await;
    }
}
