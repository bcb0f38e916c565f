//! The edges' part of the drift reconciler: every distribution of the environments the edges
//! copy is noted (the repositories' names through each environment's naming), and every edge
//! judged, in one concurrent round per edge. Run at start and at each drift check, so that
//! an edge that drifted or fell behind without a promotion of this console shows too, and a
//! follow-up cut off before its edge served production (the console restarted, or the
//! replica that followed it stopped: its next try is still kept) starts again by itself.

use std::collections::BTreeMap;

use futures::future::join_all;

use super::{EdgeWorld, Edges, FollowedEdge};
use crate::ports::PageRequest;

use super::follow::{judge_edge, start, Round};
use super::keep;

/// Repositories read per page while listing them.
const PAGE: u64 = 500;

/// Notes the distributions the edges copy and judges every edge.
pub async fn reconcile(state: &EdgeWorld) {
    let Some(edges) = &state.edges else {
        return;
    };
    keep::refresh(edges).await;
    let mut names: Vec<String> = Vec::new();
    let mut offset = 0;
    loop {
        let page = match state
            .reads
            .list_repos(PageRequest {
                offset,
                limit: PAGE,
            })
            .await
        {
            Ok(page) => page,
            Err(error) => {
                tracing::warn!(%error, "edges: the repositories could not be listed");
                return;
            }
        };
        let read = page.items.len() as u64;
        names.extend(page.items.iter().map(|r| r.display_name().to_owned()));
        offset += read;
        if read == 0 || offset >= page.total {
            break;
        }
    }
    let distributions = match state.reads.list_distributions().await {
        Ok(list) => list,
        Err(error) => {
            tracing::warn!(%error, "edges: the distributions could not be listed");
            return;
        }
    };
    let by_name: BTreeMap<&str, &str> = distributions
        .iter()
        .map(|d| (d.name.as_str(), d.base_path.as_str()))
        .collect();
    for environment in state.environments.iter() {
        if !edges.copy(&environment.name) {
            continue;
        }
        let mut detect = false;
        for repo in &names {
            let Some(distribution) = environment.distribution_for(repo) else {
                detect = true;
                continue;
            };
            if let Some(base_path) = by_name.get(distribution.as_str()) {
                edges
                    .board
                    .note(&distribution, &environment.name, base_path, None);
            }
        }
        // One environment naming no distribution: every distribution serving a publication
        // is one of its repositories' (as the pages detect them).
        if detect && state.environments.is_single() {
            for distribution in distributions.iter().filter(|d| d.publication.is_some()) {
                edges.board.note(
                    &distribution.name,
                    &environment.name,
                    &distribution.base_path,
                    None,
                );
            }
        }
    }
    let rounds = join_all(
        edges
            .followed()
            .iter()
            .map(|edge| judge_edge(state, edges, edge)),
    )
    .await;
    for (edge, round) in edges.followed().iter().zip(rounds) {
        if round == Round::NotYet && cut_off(edges, edge) {
            start(state, edges, edge);
        }
    }
}

/// Whether `edge`'s follow-up was cut off: a next try is kept (a follow-up that ended with the
/// edge serving production keeps none) and no follow-up runs in this process.
fn cut_off(edges: &Edges, edge: &FollowedEdge) -> bool {
    edges.board.next_retry(&edge.name).is_some()
        && !edges.board.following_edges().contains(&edge.name)
}
