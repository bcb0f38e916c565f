//! The `EdgeStateStore` contract, run against every store: in memory and the JSON Lines file
//! (tests/api/edge_state_store.rs), PostgreSQL (tests/real_pulp/edge_states.rs). The
//! in-memory store is the reference behaviour.

#![allow(dead_code)] // each binary uses its own part

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use futures::future::join_all;
use repo_console::domain::edge::{
    EdgeName, EdgeState, MetadataDigest, Replication, ReplicationEnd, ReplicationTask,
};
use repo_console::domain::environment::EnvironmentName;
use repo_console::ports::edge_state_store::{
    EdgeRecords, EdgeStateStore, StoredCell, StoredMark, StoredRun,
};

pub fn at(minutes: i64) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-28T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
        + Duration::minutes(minutes)
}

pub fn digest(c: char) -> MetadataDigest {
    MetadataDigest::parse(&c.to_string().repeat(64)).unwrap()
}

pub fn edge(text: &str) -> EdgeName {
    EdgeName::parse(text).unwrap()
}

pub fn mark(distribution: &str) -> StoredMark {
    StoredMark {
        distribution: distribution.to_owned(),
        environment: EnvironmentName::production(),
        base_path: format!("{distribution}/path"),
        central: Some(digest('c')),
        moved_at: Some(at(3)),
        earlier: vec![digest('a'), digest('b')],
    }
}

pub fn cell(name: &str, distribution: &str, state: EdgeState) -> StoredCell {
    StoredCell {
        edge: edge(name),
        distribution: distribution.to_owned(),
        state,
        served: Some(digest('b')),
        served_since: Some(at(1)),
        judged_at: at(4),
    }
}

/// Every state, with its details: each must read back as written.
pub fn every_state() -> Vec<EdgeState> {
    vec![
        EdgeState::Serving,
        EdgeState::Behind { since: Some(at(2)) },
        EdgeState::Behind { since: None },
        EdgeState::Replicating,
        EdgeState::Other,
        EdgeState::Failed {
            error: "the upstream-pulp refused: 403 \"quoted\"\nline".into(),
        },
        EdgeState::Unreachable {
            error: "connection refused".into(),
        },
        EdgeState::Missing,
    ]
}

pub fn runs() -> Vec<StoredRun> {
    let replication = |end| Replication {
        task: ReplicationTask::new("/pulp/api/v3/task-groups/0193-ab/"),
        started_at: at(5),
        end,
    };
    vec![
        StoredRun {
            edge: edge("dc1"),
            last: Some(replication(ReplicationEnd::Running)),
            next_retry: None,
        },
        StoredRun {
            edge: edge("dc2"),
            last: Some(replication(ReplicationEnd::Completed)),
            next_retry: Some(at(6)),
        },
        StoredRun {
            edge: edge("dc3"),
            last: Some(replication(ReplicationEnd::Failed(
                "task failed: 500".into(),
            ))),
            next_retry: Some(at(7)),
        },
        StoredRun {
            edge: edge("dc4"),
            last: None,
            next_retry: None,
        },
    ]
}

/// Every record written is read back the same: every state, every end of a replication.
pub async fn every_record_reads_back_as_written(store: &dyn EdgeStateStore) {
    assert_eq!(store.load().await.unwrap(), EdgeRecords::default());
    store.put_mark(&mark("prod-a")).await.unwrap();
    let bare = StoredMark {
        central: None,
        moved_at: None,
        earlier: Vec::new(),
        ..mark("prod-b")
    };
    store.put_mark(&bare).await.unwrap();
    let cells: Vec<StoredCell> = every_state()
        .into_iter()
        .enumerate()
        .map(|(n, state)| cell(&format!("dc{n}"), "prod-a", state))
        .collect();
    for cell in &cells {
        assert_eq!(store.swap_cell(cell).await.unwrap(), None, "a new cell");
    }
    let unserved = StoredCell {
        served: None,
        served_since: None,
        ..cell("dc1", "prod-b", EdgeState::Missing)
    };
    store.swap_cell(&unserved).await.unwrap();
    for run in runs() {
        store.put_run(&run).await.unwrap();
    }
    let loaded = store.load().await.unwrap();
    assert_eq!(loaded.marks, vec![mark("prod-a"), bare]);
    let mut expected_cells = cells.clone();
    expected_cells.push(unserved);
    let mut got_cells = loaded.cells.clone();
    let key = |c: &StoredCell| (c.edge.clone(), c.distribution.clone());
    got_cells.sort_by_key(key);
    expected_cells.sort_by_key(key);
    assert_eq!(got_cells, expected_cells);
    assert_eq!(loaded.runs, runs());
}

/// The last record under a key wins, and a swap answers the cell it replaced.
pub async fn the_last_record_under_a_key_wins(store: &dyn EdgeStateStore) {
    let first = cell("dc1", "prod-a", EdgeState::Serving);
    let second = cell("dc1", "prod-a", EdgeState::Behind { since: Some(at(9)) });
    assert_eq!(store.swap_cell(&first).await.unwrap(), None);
    assert_eq!(store.swap_cell(&second).await.unwrap(), Some(first));
    let moved = StoredMark {
        central: Some(digest('d')),
        earlier: vec![digest('a'), digest('b'), digest('c')],
        ..mark("prod-a")
    };
    store.put_mark(&mark("prod-a")).await.unwrap();
    store.put_mark(&moved).await.unwrap();
    let done = StoredRun {
        edge: edge("dc1"),
        last: runs()[1].last.clone(),
        next_retry: None,
    };
    store.put_run(&runs()[0]).await.unwrap();
    store.put_run(&done).await.unwrap();
    let loaded = store.load().await.unwrap();
    assert_eq!(loaded.cells, vec![second]);
    assert_eq!(loaded.marks, vec![moved]);
    assert_eq!(loaded.runs, vec![done]);
}

/// Replicas (or tasks of one) swapping the same cell to the same new state at once: exactly
/// one of them sees the state it replaced as another one (the change is told once).
pub async fn one_swap_sees_each_change(stores: &[Arc<dyn EdgeStateStore>]) {
    let start = cell("dc1", "prod-a", EdgeState::Serving);
    stores[0].swap_cell(&start).await.unwrap();
    let failed = cell(
        "dc1",
        "prod-a",
        EdgeState::Failed {
            error: "boom".into(),
        },
    );
    let answers = join_all((0..8).map(|n| {
        let store = stores[n % stores.len()].clone();
        let failed = failed.clone();
        async move { store.swap_cell(&failed).await.unwrap() }
    }))
    .await;
    let changes = answers
        .iter()
        .filter(|old| old.as_ref().map(|c| &c.state) != Some(&failed.state))
        .count();
    assert_eq!(changes, 1, "{answers:?}");
}
