//! What the edges tell webhooks: `edge.failed` and `edge.drift` when an edge's state changes
//! to `failed` or `other` (the change as the edge state store answered it, so that of two
//! replicas judging it, one tells it), and `edge.behind` when an edge has not served what
//! production serves for longer than `edge_replication.behind_alert_secs` (once per
//! production digest: the outbox keeps each fact once, across replicas and restarts).
//!
//! This room sits below the events' room: it says what to tell through [`EdgeNews`], which
//! the events' room implements and gives the state with the webhooks.

use futures::future::BoxFuture;

use crate::domain::edge::{lag, EdgeName, EdgeStateKind, MetadataDigest};
use crate::domain::event::{EdgeData, EventData};

use super::board::{Cell, Mark};
use super::EdgeWorld;

/// Where the edges' events go (the webhooks' outbox).
pub trait EdgeNews: Send + Sync {
    /// Records `data` for the webhooks that want it (a fact known already is not recorded
    /// again); never fails the caller.
    fn tell(&self, data: EventData) -> BoxFuture<'static, ()>;
}

/// One judgement of `edge` for `distribution`: `before`, the cell it replaced; `now`, the
/// cell judged; `central`, what production serves.
pub(crate) struct Judged<'a> {
    pub edge: &'a EdgeName,
    pub distribution: &'a str,
    pub mark: &'a Mark,
    pub central: &'a MetadataDigest,
    pub before: Option<&'a Cell>,
    pub now: &'a Cell,
}

/// The events of one judgement, in the order told.
pub(crate) fn events_of(state: &EdgeWorld, judged: &Judged<'_>) -> Vec<EventData> {
    let Some(edges) = &state.edges else {
        return Vec::new();
    };
    let kind = judged.now.state.kind();
    let changed = judged.before.map(|c| c.state.kind()) != Some(kind);
    let lag = lag(
        &judged.now.state,
        judged.mark.moved_at,
        judged.now.judged_at,
    );
    let data = || {
        EdgeData::new(
            judged.edge,
            &judged.mark.environment,
            judged.distribution,
            &judged.now.state,
            judged.central,
            judged.now.served.as_ref(),
            lag,
            judged.now.judged_at,
        )
    };
    let mut events = Vec::new();
    match kind {
        EdgeStateKind::Failed if changed => events.push(EventData::EdgeFailed(data())),
        EdgeStateKind::Other if changed => events.push(EventData::EdgeDrift(data())),
        _ => {}
    }
    let alert =
        chrono::Duration::from_std(edges.follow.behind_alert).unwrap_or(chrono::Duration::MAX);
    if kind != EdgeStateKind::Serving && lag > alert {
        events.push(EventData::EdgeBehind(data()));
    }
    events
}

/// Tells the events of one judgement, when the console has webhooks.
pub(crate) async fn told(state: &EdgeWorld, judged: &Judged<'_>) {
    let Some(news) = &state.news else {
        return;
    };
    for event in events_of(state, judged) {
        news.tell(event).await;
    }
}
