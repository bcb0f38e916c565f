//! Which edges answer, for `/readyz`: each edge's API asked at once, each answer bounded by
//! [`BOUND`], the round kept for [`KEPT`] so that a readiness probe asked every second does not
//! ask every edge every second. An edge that does not answer never makes the console unready
//! (a promotion never waits for an edge): `/readyz` says it.

use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures::future::join_all;

use crate::domain::edge::EdgeName;

use super::EdgeWorld;

/// The longest one edge is waited for.
pub const BOUND: Duration = Duration::from_secs(3);

/// How long a round's answers are shown before the edges are asked again.
pub const KEPT: Duration = Duration::from_secs(15);

/// One edge's answer: `Err` says why it did not answer, in the console's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeAnswer {
    pub edge: EdgeName,
    pub answer: Result<(), String>,
}

/// The last round, and when it was asked.
#[derive(Default)]
pub struct LastRound(Mutex<Option<(DateTime<Utc>, Vec<EdgeAnswer>)>>);

impl LastRound {
    fn fresh(&self, now: DateTime<Utc>) -> Option<Vec<EdgeAnswer>> {
        let kept = chrono::Duration::from_std(KEPT).unwrap_or_else(|_| chrono::Duration::zero());
        let last = self.0.lock().unwrap_or_else(|p| p.into_inner());
        last.as_ref()
            .filter(|(at, _)| now >= *at && now - *at < kept)
            .map(|(_, answers)| answers.clone())
    }

    fn keep(&self, now: DateTime<Utc>, answers: Vec<EdgeAnswer>) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some((now, answers));
    }
}

/// Each edge and whether it answers, in the configured order; empty when no edge is followed.
pub async fn answering(state: &EdgeWorld) -> Vec<EdgeAnswer> {
    let Some(edges) = &state.edges else {
        return Vec::new();
    };
    let now = state.clock.now().await;
    if let Some(answers) = edges.last_round.fresh(now) {
        return answers;
    }
    let answers = join_all(edges.followed().iter().map(|edge| async {
        let answer = match tokio::time::timeout(BOUND, edges.replicator.answers(&edge.name)).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err(format!("no answer within {} s", BOUND.as_secs())),
        };
        EdgeAnswer {
            edge: edge.name.clone(),
            answer,
        }
    }))
    .await;
    edges.last_round.keep(now, answers.clone());
    answers
}
