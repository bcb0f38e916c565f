//! Issue 50, item 2, against the real Pulp, on rc-pins (v1..v3, a publication of each;
//! rc-pins-staging and rc-pins-prod serve v1 between tests): a passing check promotes v2 to
//! production by itself, a schedule of v3 is made, then production is rolled back to v1 and
//! pinned. A passing check on v3 then moves nothing (refused `pinned`, the distribution
//! unchanged in Pulp), the due schedule is refused (`pinned`, ended `refused`, Pulp unchanged),
//! and a person's deploy of v3 moves production and lifts the pin.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::memory::{ManualClock, MemoryScheduleStore};
use repo_console::app::schedules::{make, run};
use repo_console::domain::check::CheckName;
use repo_console::domain::deploy::{Confirmation, DeployAsk, SeenLive};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::{Operator, PersonName};
use repo_console::domain::policy::checks::CheckPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::VersionNumber;
use repo_console::domain::schedule::ScheduleState;
use repo_console::ports::ScheduleStore;
use serde_json::{json, Value};

use super::console::{over_upstream, Console, Reply};
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp, staging_then_production};

const REPO: &str = "rc-pins";
const CI: &str = "ci-staging-token-real-pulp-50";
const DEPLOYER: &str = "deployer-token-real-pulp-50";

/// Production requires `smoke` on staging and takes a version by itself as user:promoter.
fn policy() -> Policy {
    let production = EnvironmentName::production();
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_checks(CheckPolicy::new(
        BTreeMap::from([(
            production.clone(),
            vec![CheckName::parse("smoke").expect("a name")],
        )]),
        BTreeSet::from([production]),
        Some(PersonName::new("promoter").expect("a name")),
    ))
}

fn tokens() -> BearerTokens {
    BearerTokens::new(
        vec![
            super::tokens::token("ci-staging", CI, &[], &["check:staging"]),
            super::tokens::token("deployer", DEPLOYER, &[], &["deploy:*"]),
        ],
        None,
        Arc::new(SystemClock),
    )
}

async fn call(console: &Console, token: &str, method: &str, path: &str, body: &Value) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("authorization", bearer.as_str()),
        ("content-type", "application/json"),
    ];
    console
        .client
        .send(method, path, &headers, &body.to_string())
        .await
}

fn json_of(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

/// `rc-pins-staging` pointed at the seeded publication of version `n` with Pulp's API, as a
/// deploy there would; put back on v1 when dropped (also when a test fails half-way).
struct Staging<'a> {
    production: &'a SeededProduction,
    dist: String,
}

impl<'a> Staging<'a> {
    fn of(production: &'a SeededProduction) -> Self {
        let name = format!("{}-staging", production.name);
        let dist = production
            .pulp
            .href_named("distributions/rpm/rpm/", &name)
            .unwrap_or_else(|| panic!("no distribution {name}: run scripts/pulp/seed.sh"));
        Self { production, dist }
    }

    fn serve(&self, n: usize) {
        let publication = &self.production.seeded[n - 1];
        self.production.pulp.raw_ok(
            "PATCH",
            &self.dist,
            Some(&json!({ "publication": publication })),
        );
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        self.serve(1);
    }
}

/// A passing `smoke` on staging for version `n`: the answer's `promotion`.
async fn passes(console: &Console, staging: &Staging<'_>, n: u64) -> Value {
    staging.serve(usize::try_from(n).unwrap());
    let body = json!({"repository": REPO, "environment": "staging", "version": n,
        "name": "smoke", "passed": true, "url": format!("https://ci.example.com/{REPO}/{n}")});
    let reply = call(console, CI, "POST", "/api/v1/checks", &body).await;
    assert_eq!(reply.status, 201, "{}", reply.body);
    json_of(&reply)["promotion"].clone()
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_rollback_of_production_holds_against_a_passing_check_and_a_due_schedule_until_a_deploy_by_hand(
) {
    let pulp = required_pulp();
    let _repo = exclusive(REPO).await;
    let production = SeededProduction::at_v1(pulp, REPO);
    let staging = Staging::of(&production);
    let start = chrono::Utc::now();
    let clock = Arc::new(ManualClock::new(start));
    let schedules: Arc<dyn ScheduleStore> = Arc::new(MemoryScheduleStore::default());
    let (kept, at) = (schedules.clone(), clock.clone());
    let console = over_upstream(Arc::new(production.pulp.client()), 25)
        .configure(move |state| {
            state
                .environments(staging_then_production())
                .policy(policy())
                .api_callers(Arc::new(tokens()))
                .clock(at)
                .schedules(kept, chrono::Duration::minutes(10))
        })
        .spawn()
        .await;

    // v2 promoted by a passing check; a schedule of v3 made against it.
    let promoted = passes(&console, &staging, 2).await;
    assert_eq!(promoted["outcome"], "deployed", "{promoted}");
    assert_eq!(production.state().version, 2);
    let ask = DeployAsk {
        target: VersionNumber::new(3),
        environment: EnvironmentName::production(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        rollback: false,
        reason: Some("the weekly update"),
        override_freeze: false,
    };
    let due = start + chrono::Duration::minutes(5);
    let scheduled = make::schedule(
        &console.state,
        &production.id,
        ask,
        due,
        &Operator::new("alice").unwrap(),
    )
    .await
    .expect("scheduled");

    // Production rolled back to v1: pinned.
    let deployments = format!("/api/v1/repositories/{}/deployments", production.id);
    let rollback = call(
        &console,
        DEPLOYER,
        "POST",
        &deployments,
        &json!({"version": 1, "expected_current": 2, "rollback": true,
            "reason": "v2 breaks logins"}),
    )
    .await;
    assert_eq!(rollback.status, 200, "{}", rollback.body);
    let pinned = production.state();
    assert_eq!(pinned.version, 1);
    let repository = format!("/api/v1/repositories/{}", production.id);
    let answer = json_of(&console.client.get(&repository).await);
    let pin = answer["environments"][1]["pin"].clone();
    assert_eq!(pin["version"], 1, "{answer}");
    assert_eq!(pin["set_by"], "deployer");

    // A passing check that would promote v3 moves nothing.
    let held = passes(&console, &staging, 3).await;
    assert_eq!(held["outcome"], "refused", "{held}");
    assert_eq!(held["code"], "pinned", "{held}");
    assert_eq!(
        production.state(),
        pinned,
        "the distribution unchanged in Pulp: same publication, no update, no publication made"
    );

    // The due schedule is refused.
    clock.advance(chrono::Duration::minutes(5));
    assert_eq!(run::run_due(&console.state).await.unwrap().ran, 1);
    let schedule = schedules
        .get(&scheduled.schedule.id)
        .await
        .unwrap()
        .expect("kept");
    let ScheduleState::Refused { reason, .. } = &schedule.state else {
        panic!("{:?}", schedule.state)
    };
    assert!(reason.contains("pinned to v1"), "{reason}");
    assert_eq!(production.state(), pinned, "the schedule moved nothing");

    // A deploy by hand moves production and lifts the pin.
    let by_hand = call(
        &console,
        DEPLOYER,
        "POST",
        &deployments,
        &json!({"version": 3, "expected_current": 1, "reason": "v3 fixes logins"}),
    )
    .await;
    assert_eq!(by_hand.status, 200, "{}", by_hand.body);
    assert_eq!(
        production.state().version,
        3,
        "Pulp serves v3 in production"
    );
    let answer = json_of(&console.client.get(&repository).await);
    assert_eq!(answer["environments"][1].get("pin"), None, "{answer}");
    let pins = std::fs::read_to_string(console.audit_path.with_file_name("pins.jsonl")).unwrap();
    let records: Vec<Value> = pins
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let kinds: Vec<&str> = records
        .iter()
        .map(|r| r["record"]["record"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["set", "held", "held", "lifted"], "{pins}");
    assert_eq!(records[3]["record"]["how"]["to_version"], 3);
}
