//! The follow-up of a promotion on the edges: for each edge that copies the environment, in
//! a task of its own, rounds of "judge, replicate when not serving, follow the replication,
//! judge again", with a back-off between rounds, until the edge serves production.
//!
//! At most one follow-up runs per edge in this process (a promotion during one asks it to go
//! round once more), and each round holds the edge's turn shared with the other replicas (the
//! deploy lock, keyed `edge:<name>`) and judges first under it: a replica that waited for
//! another's replication finds the edge serving and replicates nothing.

use futures::future::join_all;

use crate::domain::deploy::DeployPlan;
use crate::domain::edge::{
    judge, EdgeName, EdgeRead, EdgeState, Replication, ReplicationEnd, ReplicationTask,
};
use crate::domain::repository::DistributionHref;
use crate::ports::EdgeError;

use super::board::Cell;
use super::{keep, tell, EdgeWorld, Edges, FollowedEdge};

/// How a round left an edge.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Round {
    /// It serves production for every distribution it copies.
    CaughtUp,
    /// Not yet: try again after the back-off.
    NotYet,
}

/// The pipeline's step after its moves and audit lines: notes each distribution `moved`
/// (the plans of the members that moved, or may have) in an environment the edges copy,
/// and starts (or asks once more) the follow-up of each edge that copies it. Returns at
/// once: nothing here can hold or fail the promotion.
pub async fn after_promotion(state: &EdgeWorld, moved: &[&DeployPlan]) {
    let Some(edges) = &state.edges else {
        return;
    };
    let now = state.clock.now().await;
    let mut environments = Vec::new();
    if moved.iter().any(|plan| edges.copy(&plan.environment)) {
        keep::refresh(edges).await;
    }
    for plan in moved {
        if !edges.copy(&plan.environment) {
            continue;
        }
        let distribution = &plan.distribution.name;
        edges.board.note(
            distribution,
            &plan.environment,
            &plan.distribution.base_path,
            Some(now),
        );
        keep::mark(edges, distribution).await;
        edges.board.production_moved(distribution, now);
        for (edge, cell) in edges.board.cells_of(distribution) {
            keep::cell(edges, &edge, distribution, cell).await;
        }
        if !environments.contains(&plan.environment) {
            environments.push(plan.environment.clone());
        }
    }
    for edge in edges.followed() {
        if environments.iter().any(|e| edge.copies(e)) {
            start(state, edges, edge);
        }
    }
}

/// Starts `edge`'s follow-up now (the edges page's "replicate again"); `false` when the
/// console follows no edge of that name.
pub fn replicate_again(state: &EdgeWorld, edge: &EdgeName) -> bool {
    let Some(edges) = &state.edges else {
        return false;
    };
    let Some(followed) = edges.followed().iter().find(|e| &e.name == edge) else {
        return false;
    };
    start(state, edges, followed);
    true
}

/// Spawns `edge`'s follow-up unless one runs (which then goes round once more).
pub(crate) fn start(state: &EdgeWorld, edges: &Edges, edge: &FollowedEdge) {
    if !edges.board.start_following(&edge.name) {
        return;
    }
    let (state, edges, edge) = (state.clone(), edges.clone(), edge.clone());
    tokio::spawn(async move {
        let mut attempt = 0u32;
        loop {
            match round(&state, &edges, &edge).await {
                Round::CaughtUp => {
                    attempt = 0;
                    keep::retry_at(&edges, &edge.name, None).await;
                    if edges.board.finish_following(&edge.name) {
                        return;
                    }
                }
                Round::NotYet => {
                    attempt = attempt.saturating_add(1);
                    let wait = edges.follow.backoff.after(attempt);
                    let at = state.clock.now().await
                        + chrono::Duration::from_std(wait)
                            .unwrap_or_else(|_| chrono::Duration::zero());
                    keep::retry_at(&edges, &edge.name, Some(at)).await;
                    tracing::info!(edge = %edge.name, attempt, wait_secs = wait.as_secs_f32(), "edge not caught up: tried again later");
                    tokio::time::sleep(wait).await;
                    edges.board.take_again(&edge.name);
                }
            }
        }
    });
}

/// One round for one edge, under its turn shared with the other replicas.
async fn round(state: &EdgeWorld, edges: &Edges, edge: &FollowedEdge) -> Round {
    let _turn = match &state.replica_lock {
        Some(lock) => {
            let key = DistributionHref::new(format!("edge:{}", edge.name));
            match lock.acquire(&key).await {
                Ok(turn) => Some(turn),
                Err(error) => {
                    tracing::warn!(edge = %edge.name, %error, "edge follow-up: the lock shared with the other replicas could not be taken");
                    return Round::NotYet;
                }
            }
        }
        None => None,
    };
    // What the other replicas did while this one waited for the turn.
    keep::refresh(edges).await;
    if judge_edge(state, edges, edge).await == Round::CaughtUp {
        return Round::CaughtUp;
    }
    // A replication the store says runs (a replica that followed it stopped, or gave up
    // waiting) is followed, not started twice.
    if let Some(running) = edges
        .board
        .last_replication(&edge.name)
        .filter(|r| r.end == ReplicationEnd::Running)
    {
        tracing::info!(edge = %edge.name, task = running.task.as_str(), "edge replication already running: followed");
        return follow_replication(state, edges, edge, &running.task).await;
    }
    let started_at = state.clock.now().await;
    let task = match edges.replicator.replicate(&edge.name).await {
        Ok(task) => task,
        Err(error) => {
            tracing::warn!(edge = %edge.name, %error, "edge replication not started");
            let end = match error {
                EdgeError::Unreachable(_) => None,
                EdgeError::Refused(_) | EdgeError::Unknown(_) => {
                    Some(ReplicationEnd::Failed(error.to_string()))
                }
            };
            if let Some(end) = end {
                let task = ReplicationTask::new("");
                edges.board.replication(
                    &edge.name,
                    Replication {
                        task,
                        started_at,
                        end,
                    },
                );
                keep::run(edges, &edge.name).await;
            }
            judge_edge(state, edges, edge).await;
            return Round::NotYet;
        }
    };
    tracing::info!(edge = %edge.name, task = task.as_str(), "edge replication started");
    edges.board.replication(
        &edge.name,
        Replication {
            task: task.clone(),
            started_at,
            end: ReplicationEnd::Running,
        },
    );
    keep::run(edges, &edge.name).await;
    judge_edge(state, edges, edge).await;
    follow_replication(state, edges, edge, &task).await
}

/// Follows `task` to its end, keeps how it ended, and judges the edge again.
async fn follow_replication(
    state: &EdgeWorld,
    edges: &Edges,
    edge: &FollowedEdge,
    task: &ReplicationTask,
) -> Round {
    let end = wait_for(edges, &edge.name, task).await;
    tracing::info!(edge = %edge.name, task = task.as_str(), end = ?end, "edge replication followed");
    edges.board.replication_end(&edge.name, end);
    keep::run(edges, &edge.name).await;
    judge_edge(state, edges, edge).await
}

/// Follows `task` until it ends, or the replication timeout passes (then it counts as
/// failed here: the edge is tried again).
async fn wait_for(edges: &Edges, edge: &EdgeName, task: &ReplicationTask) -> ReplicationEnd {
    let follow = async {
        loop {
            match edges.replicator.replication(edge, task).await {
                Ok(ReplicationEnd::Running) => {}
                Ok(end) => return end,
                Err(EdgeError::Unreachable(why)) => {
                    tracing::debug!(%edge, %why, "edge replication: no answer, looked at again");
                }
                Err(error) => return ReplicationEnd::Failed(error.to_string()),
            }
            tokio::time::sleep(edges.follow.poll).await;
        }
    };
    let bound = edges.follow.replication_timeout;
    tokio::time::timeout(bound, follow).await.unwrap_or_else(|_| {
        ReplicationEnd::Failed(format!(
            "not ended within {} s (edge_replication.replication_timeout_secs): looked at again later",
            bound.as_secs()
        ))
    })
}

/// Reads what production and the edge serve for every distribution the edge copies (one
/// concurrent round each), judges the edge for each and records it.
pub(crate) async fn judge_edge(state: &EdgeWorld, edges: &Edges, edge: &FollowedEdge) -> Round {
    let marks = edges.board.marks_of(&edge.environments);
    let central = join_all(
        marks
            .iter()
            .map(|(_, mark)| edges.replicator.central_digest(&mark.base_path)),
    )
    .await;
    let reads = join_all(
        marks
            .iter()
            .map(|(_, mark)| edges.replicator.edge_read(&edge.name, &mark.base_path)),
    )
    .await;
    let now = state.clock.now().await;
    let last = edges.board.last_replication(&edge.name).map(|r| r.end);
    let mut caught_up = true;
    for (((name, _), central), read) in marks.iter().zip(central).zip(reads) {
        let central = match central {
            Ok(Some(digest)) => digest,
            Ok(None) => continue, // production serves nothing there: nothing to copy
            Err(error) => {
                tracing::warn!(distribution = %name, %error, "edge follow-up: what production serves could not be read");
                caught_up = false;
                continue;
            }
        };
        if edges.board.central(name, Some(central.clone())) {
            keep::mark(edges, name).await;
        }
        let Some(mark) = edges.board.mark(name) else {
            continue;
        };
        let before = edges.board.cell(&edge.name, name);
        let behind_since = match before.as_ref().map(|c| &c.state) {
            Some(EdgeState::Behind { since }) => *since,
            _ => None,
        };
        let state_now = judge(
            &central,
            &mark.earlier,
            &read,
            last.as_ref(),
            behind_since,
            now,
        );
        caught_up &= state_now == EdgeState::Serving;
        if let EdgeRead::Unreachable(why) = &read {
            tracing::info!(edge = %edge.name, distribution = %name, %why, "edge unreachable");
        }
        let served = match &read {
            EdgeRead::Serves(digest) => Some(digest.clone()),
            _ => None,
        };
        let served_since = match before {
            Some(before) if before.served == served => before.served_since,
            _ => served.as_ref().map(|_| now),
        };
        let cell = Cell {
            state: state_now,
            judged_at: now,
            served,
            served_since,
        };
        let replaced = keep::cell(edges, &edge.name, name, cell.clone()).await;
        let judged = tell::Judged {
            edge: &edge.name,
            distribution: name,
            mark: &mark,
            central: &central,
            before: replaced.as_ref(),
            now: &cell,
        };
        tell::told(state, &judged).await;
    }
    super::measure::report(state).await;
    if caught_up {
        Round::CaughtUp
    } else {
        Round::NotYet
    }
}
