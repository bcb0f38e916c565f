//! Issue 38 against the real Pulp and PostgreSQL: the schedule store contract on PostgreSQL;
//! two replicas on one database racing for one due schedule (one deploy); the background task
//! running a schedule a few seconds ahead (production moves) and refusing another because
//! production moved meanwhile; a soak refusal, then success once the clock has moved.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use repo_console::adapters::memory::{ManualClock, MemoryScheduleStore};
use repo_console::adapters::postgres::{connect, PgAuditSink, PgDeployLock, PgScheduleStore};
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::schedules::{make, run};
use repo_console::app::AppState;
use repo_console::domain::deploy::{
    Confirmation, DeployAsk, DeployRequest, Intent, Refusal, SeenLive,
};
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::identity::Operator;
use repo_console::domain::policy::{Policy, SoakTime};
use repo_console::domain::repository::{RepoId, VersionNumber};
use repo_console::domain::schedule::ScheduleState;
use repo_console::ports::ScheduleStore;
use serde_json::json;

use super::console::{over_upstream, Console};
use super::database::{required_database, TestDatabase};
use super::schedule_contract;
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp, TestPulp};

const SCHEDULES: &str = "rc-schedules";
const SOAK: &str = "rc-soak";

/// A schedule store on its own connection pool to `database` (as a replica has).
async fn schedule_store(database: &TestDatabase) -> Arc<dyn ScheduleStore> {
    let db = connect(&database.url, None).await.unwrap();
    Arc::new(PgScheduleStore::new(db))
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn schedules_are_kept_found_and_listed_in_postgres() {
    let database = required_database();
    let store = schedule_store(&database).await;
    assert!(store.target().starts_with("postgres://127.0.0.1:"));
    schedule_contract::create_get_recent_and_open(store.as_ref()).await;
    assert_eq!(
        database
            .query("SELECT string_agg(id || ':' || state, ',' ORDER BY id) FROM deploy_schedules"),
        "s-1:waiting,s-2:cancelled,s-3:waiting"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn a_schedule_is_replaced_compare_and_swap_in_postgres() {
    let database = required_database();
    let store = schedule_store(&database).await;
    schedule_contract::replace_is_compare_and_swap(store.as_ref()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs PostgreSQL"]
async fn replicas_claiming_one_schedule_at_once_one_wins_in_postgres() {
    let database = required_database();
    let replicas = [
        schedule_store(&database).await,
        schedule_store(&database).await,
    ];
    schedule_contract::one_of_many_concurrent_claims_wins(&replicas, 24).await;
    assert_eq!(
        database.query("SELECT revision || ':' || state FROM deploy_schedules WHERE id = 's-race'"),
        "1:running"
    );
}

/// Issue 43: retention removes only ended schedules; a row whose JSON cannot be read is
/// held (not open, refused to `get`) and listed as unreadable, naming its row.
#[tokio::test]
#[ignore = "needs PostgreSQL"]
async fn only_ended_schedules_are_removed_and_an_unreadable_row_is_held_in_postgres() {
    let database = required_database();
    let store = schedule_store(&database).await;
    schedule_contract::only_ended_schedules_are_removed(store.as_ref()).await;
    database.query(
        "UPDATE deploy_schedules SET state = 'waiting', \
         schedule = replace(schedule, '\"target_version\":7', '\"target_version\":\"seven\"') \
         WHERE id = 's-waiting'",
    );
    assert_eq!(store.open().await.unwrap(), Vec::new());
    let id = repo_console::domain::ids::ScheduleId::parse("s-waiting").unwrap();
    assert!(matches!(
        store.get(&id).await,
        Err(repo_console::ports::ScheduleStoreError::Unreadable(_))
    ));
    let unreadable = store.unreadable().await.unwrap();
    assert_eq!(unreadable.len(), 1, "{unreadable:?}");
    assert_eq!(unreadable[0].id, Some(id.clone()));
    assert!(unreadable[0]
        .place
        .starts_with("row s-waiting of deploy_schedules"));
    assert_eq!(
        store.remove_ended(&[id]).await,
        Ok(0),
        "never removed while unreadable"
    );
}

/// A deploy of `version` of `repo` to `environment` as the API asks it: expecting `expected`.
pub(super) fn ask(version: u64, environment: &str, expected: u64) -> DeployAsk<'static> {
    DeployAsk {
        target: VersionNumber::new(version),
        environment: EnvironmentName::parse(environment).unwrap(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::Version(VersionNumber::new(expected)),
        rollback: false,
        reason: Some("patch Tuesday"),
        override_freeze: false,
    }
}

pub(super) fn alice() -> Operator {
    Operator::new("alice").unwrap()
}

/// A console on the real Pulp wired as one replica of several: audit, deploy lock and
/// schedules in `db`, on a pool of its own, named `name` in its claims.
async fn replica(
    pulp: &TestPulp,
    db: &TestDatabase,
    clock: Arc<ManualClock>,
    name: &str,
) -> Console {
    let database = connect(&db.url, None)
        .await
        .expect("the test database, migrated");
    let production = HashMap::from([(SCHEDULES.to_owned(), format!("{SCHEDULES}-prod"))]);
    let name = name.to_owned();
    over_upstream(Arc::new(pulp.client()), 25)
        .configure(move |state| {
            state
                .production(production)
                .clock(clock)
                .audit(Arc::new(PgAuditSink::new(database.clone())))
                .replica_lock(Arc::new(PgDeployLock::new(database.clone())))
                .schedules(
                    Arc::new(PgScheduleStore::new(database)),
                    chrono::Duration::minutes(10),
                )
                .replica(&name)
        })
        .spawn()
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn two_replicas_on_one_database_run_a_due_schedule_once() {
    let pulp = required_pulp();
    let db = required_database();
    let _repo = exclusive(SCHEDULES).await;
    let production = SeededProduction::at_v1(pulp, SCHEDULES);
    let now = chrono::Utc::now();
    let clock = Arc::new(ManualClock::new(now));
    let a = replica(&production.pulp, &db, clock.clone(), "replica-a").await;
    let b = replica(&production.pulp, &db, clock.clone(), "replica-b").await;
    let before = production.state();

    let at = now + chrono::Duration::minutes(5);
    let made = make::schedule(
        &a.state,
        &production.id,
        ask(3, "production", 1),
        at,
        &alice(),
    )
    .await
    .expect("scheduled");
    clock.advance(chrono::Duration::minutes(5));
    let (ran_a, ran_b) = tokio::join!(run::run_due(&a.state), run::run_due(&b.state));
    let (ran_a, ran_b) = (ran_a.unwrap(), ran_b.unwrap());
    assert_eq!(
        ran_a.ran + ran_b.ran,
        1,
        "one replica ran it: {ran_a:?} {ran_b:?}"
    );

    let after = production.state();
    assert_eq!(after.version, 3);
    assert_eq!(
        after.publications,
        before.publications + 1,
        "one publication"
    );
    assert_eq!(
        after.updates,
        before.updates + 1,
        "one update of the distribution"
    );
    assert_eq!(
        db.query("SELECT string_agg(outcome, ',' ORDER BY id) FROM deploy_audit"),
        "started,deployed"
    );
    assert_eq!(
        db.query(&format!(
            "SELECT state FROM deploy_schedules WHERE id = '{}'",
            made.schedule.id
        )),
        "done"
    );
    let line: serde_json::Value =
        serde_json::from_str(&db.query("SELECT line FROM deploy_audit WHERE outcome = 'deployed'"))
            .unwrap();
    assert_eq!(
        line["schedule"],
        json!({"schedule_id": made.schedule.id.as_str(), "author": "alice"})
    );
    assert_eq!(line["operator"], "alice");
    let again = tokio::join!(run::run_due(&a.state), run::run_due(&b.state));
    assert_eq!(
        (again.0.unwrap().ran, again.1.unwrap().ran),
        (0, 0),
        "never twice"
    );
}

/// What the store says of schedule `id`, waiting (with a deadline) until it ended.
pub(super) async fn ended(
    state: &AppState,
    store: &dyn ScheduleStore,
    id: &repo_console::domain::ids::ScheduleId,
) -> ScheduleState {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let schedule = store.get(id).await.unwrap().expect("kept");
        if !schedule.state.is_open() {
            return schedule.state;
        }
        assert!(
            Instant::now() < deadline,
            "{id} still {:?} ({})",
            schedule.state,
            state.environments().len()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp"]
async fn a_schedule_a_few_seconds_ahead_moves_production_and_one_made_against_it_is_refused() {
    let pulp = required_pulp();
    let _repo = exclusive(SCHEDULES).await;
    let production = SeededProduction::at_v1(pulp, SCHEDULES);
    let store = Arc::new(MemoryScheduleStore::default());
    let kept = store.clone();
    let names = HashMap::from([(SCHEDULES.to_owned(), format!("{SCHEDULES}-prod"))]);
    let console = over_upstream(Arc::new(production.pulp.client()), 25)
        .configure(move |state| {
            state
                .production(names)
                .schedules(kept, chrono::Duration::minutes(10))
        })
        .spawn()
        .await;
    let state = console.state.clone();
    let now = chrono::Utc::now();
    let first = make::schedule(
        &state,
        &production.id,
        ask(3, "production", 1),
        now + chrono::Duration::seconds(3),
        &alice(),
    )
    .await
    .expect("scheduled");
    let second = make::schedule(
        &state,
        &production.id,
        ask(2, "production", 1),
        now + chrono::Duration::seconds(6),
        &alice(),
    )
    .await
    .expect("scheduled");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker = tokio::spawn(run::work(state.clone(), Duration::from_secs(1), async {
        let _ = stopped.await;
    }));

    let done = ended(&state, store.as_ref(), &first.schedule.id).await;
    assert!(matches!(done, ScheduleState::Done { .. }), "{done:?}");
    assert_eq!(
        production.state().version,
        3,
        "production moved at the schedule's time"
    );
    let refused = ended(&state, store.as_ref(), &second.schedule.id).await;
    let ScheduleState::Refused { reason, .. } = &refused else {
        panic!("{refused:?}")
    };
    assert!(
        reason.contains("it served v1, it now serves v3"),
        "{reason}"
    );
    assert_eq!(
        production.state().version,
        3,
        "the refused one moved nothing"
    );
    let _ = stop.send(());
    worker.await.unwrap();
}

/// rc-soak's staging and production, by pattern.
fn staging_then_production() -> EnvironmentPath {
    let environment = |name: &str, pattern: &str| Environment {
        name: EnvironmentName::parse(name).unwrap(),
        naming: DistributionNaming::new(Some(NamePattern::parse(pattern).unwrap()), []),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![
        environment("staging", "{repo}-staging"),
        environment("production", "{repo}-prod"),
    ])
    .unwrap()
}

/// rc-soak-staging put back at v1 at the end, whatever happens.
struct Staging<'a> {
    pulp: &'a TestPulp,
    href: String,
    v1: String,
}

impl Staging<'_> {
    fn point(&self, publication: &str) {
        self.pulp.raw_ok(
            "PATCH",
            &self.href,
            Some(&json!({ "publication": publication })),
        );
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        let _ = self.pulp.raw(
            "PATCH",
            &self.href,
            Some(&json!({ "publication": self.v1 })),
        );
    }
}

fn request(version: u64, environment: &str, expected: u64) -> DeployRequest {
    DeployRequest {
        target: VersionNumber::new(version),
        environment: EnvironmentName::parse(environment).unwrap(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::Version(VersionNumber::new(expected)),
        intent: Intent::Deploy(None),
        override_freeze: false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[ignore = "needs a real Pulp"]
async fn production_refuses_what_has_not_soaked_in_staging_then_takes_it() {
    let pulp = required_pulp();
    let _repo = exclusive(SOAK).await;
    let production = SeededProduction::at_v1(pulp, SOAK);
    let staging = Staging {
        pulp: &production.pulp,
        href: production
            .pulp
            .href_named("distributions/rpm/rpm/", "rc-soak-staging")
            .expect("seed.sh made rc-soak-staging"),
        v1: production.seeded[0].clone(),
    };
    staging.point(&production.seeded[0]);
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let policy = Policy::default().with_soaks(std::collections::BTreeMap::from([(
        EnvironmentName::production(),
        SoakTime::parse("1h").unwrap(),
    )]));
    let moved = clock.clone();
    let console = over_upstream(Arc::new(production.pulp.client()), 25)
        .configure(move |state| {
            state
                .clock(moved)
                .environments(staging_then_production())
                .policy(policy)
        })
        .spawn()
        .await;
    let id: &RepoId = &production.id;

    let staged = deploy(&console.state, id, &request(2, "staging", 1), &alice()).await;
    assert!(
        matches!(staged, DeployOutcome::Deployed { .. }),
        "{staged:?}"
    );
    let refused = deploy(&console.state, id, &request(2, "production", 1), &alice()).await;
    let DeployOutcome::Refused(Refusal::Soak(soak)) = &refused else {
        panic!("{refused:?}")
    };
    assert!(soak.until.is_some(), "says until when");
    assert_eq!(production.state().version, 1, "nothing moved");

    clock.advance(chrono::Duration::hours(1));
    let deployed = deploy(&console.state, id, &request(2, "production", 1), &alice()).await;
    assert!(
        matches!(deployed, DeployOutcome::Deployed { .. }),
        "{deployed:?}"
    );
    assert_eq!(production.state().version, 2);
}
