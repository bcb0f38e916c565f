//! The cross-replica deploy lock as the deploy use case sees it (`ports::DeployLock`), with a
//! lock whose wait lets "another replica" deploy first: the turn is keyed by the production
//! distribution, taken after planning, and what was planned is read again under it.

use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use repo_console::adapters::memory::{InMemoryPulp, MemoryOptions};
use repo_console::app::deploy::{deploy, DeployOutcome, NotStarted};
use repo_console::domain::deploy::{DeployRequest, Refusal, SeenLive};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::{DistributionHref, VersionNumber};
use repo_console::ports::{DeployLock, DeployTurn, LockError};

use crate::helpers::*;

/// Records the keys asked for; before answering, runs `meanwhile` (another replica's deploy).
struct ScriptedLock {
    keys: Mutex<Vec<String>>,
    meanwhile: Box<dyn Fn() + Send + Sync>,
    refuse: bool,
}

#[async_trait]
impl DeployLock for ScriptedLock {
    async fn acquire(&self, distribution: &DistributionHref) -> Result<DeployTurn, LockError> {
        self.keys
            .lock()
            .unwrap()
            .push(distribution.as_str().to_owned());
        (self.meanwhile)();
        if self.refuse {
            return Err(LockError {
                target: "postgres://db/console".into(),
                reason: "connection refused".into(),
            });
        }
        Ok(DeployTurn::new(()))
    }
}

struct Setup {
    memory: Arc<InMemoryPulp>,
    fx: Fixture,
    audit_path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

fn setup() -> Setup {
    let memory = Arc::new(InMemoryPulp::new(MemoryOptions {
        task_delay: std::time::Duration::ZERO,
        ..Default::default()
    }));
    let fx = fixture(&memory);
    let dir = tempfile::tempdir().unwrap();
    let audit_path = dir.path().join("audit.jsonl");
    Setup {
        memory,
        fx,
        audit_path,
        _dir: dir,
    }
}

async fn deploy_v4(s: &Setup, lock: Arc<ScriptedLock>) -> DeployOutcome {
    let (state, _) = test_state(&s.memory, &s.audit_path);
    let state = state.rebuild().replica_lock(lock).build();
    let request = DeployRequest {
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        ..deploy_request(4, "base-os")
    };
    deploy(&state, &s.fx.base_os, &request, &Operator::placeholder()).await
}

fn audit_lines(s: &Setup) -> usize {
    std::fs::read_to_string(&s.audit_path).map_or(0, |t| t.lines().count())
}

#[tokio::test]
async fn the_turn_is_keyed_by_the_production_distribution_and_a_quiet_wait_deploys() {
    let s = setup();
    let lock = Arc::new(ScriptedLock {
        keys: Mutex::default(),
        meanwhile: Box::new(|| {}),
        refuse: false,
    });
    let outcome = deploy_v4(&s, lock.clone()).await;
    assert!(
        matches!(outcome, DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );
    let prod = s.memory.distribution("base-os-prod").unwrap();
    assert_eq!(*lock.keys.lock().unwrap(), [prod.href.as_str().to_owned()]);
    assert_eq!(audit_lines(&s), 2);
}

#[tokio::test]
async fn a_deploy_by_another_replica_during_the_wait_is_seen_and_nothing_is_changed() {
    let s = setup();
    let memory = s.memory.clone();
    let base_os = s.fx.base_os.clone();
    let meanwhile = Box::new(move || {
        let publication = memory.publish(&base_os, VersionNumber::new(3));
        memory.point_distribution("base-os-prod", &publication);
    });
    let lock = Arc::new(ScriptedLock {
        keys: Mutex::default(),
        meanwhile,
        refuse: false,
    });
    let calls_before = s.memory.calls().len();
    let outcome = deploy_v4(&s, lock).await;
    assert!(
        matches!(
            outcome,
            DeployOutcome::Refused(Refusal::ProductionMoved { .. })
        ),
        "{outcome:?}"
    );
    let changes = s.memory.calls()[calls_before..]
        .iter()
        .filter(|c| c.starts_with("create_publication") || c.starts_with("update_distribution"))
        .count();
    assert_eq!(changes, 0, "nothing sent upstream");
    assert_eq!(audit_lines(&s), 0, "nothing audited");
}

#[tokio::test]
async fn a_lock_that_cannot_be_taken_stops_the_deploy_before_anything_changes() {
    let s = setup();
    let lock = Arc::new(ScriptedLock {
        keys: Mutex::default(),
        meanwhile: Box::new(|| {}),
        refuse: true,
    });
    let outcome = deploy_v4(&s, lock).await;
    let DeployOutcome::NotStarted(NotStarted::LockUnavailable(error)) = outcome else {
        panic!("not started: {outcome:?}");
    };
    assert!(error.to_string().contains("connection refused"));
    assert_eq!(audit_lines(&s), 0);
    assert_eq!(
        s.memory.serving_version("base-os-prod"),
        Some(VersionNumber::new(2))
    );
}
