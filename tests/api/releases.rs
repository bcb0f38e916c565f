//! Releases promoted all or none, through the use case the pages and the API call: every
//! outcome of a promotion whose third member's move fails (restored, a restore that fails
//! too, a move whose end is unknown, a refused restore of a move that never landed), a failed publication, a stale expected version, an
//! unknown member, one request for the whole release, and the JSON API. Each answer is
//! checked against what the fake Pulp serves once every queued task has run.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::bearer::BearerTokens;
use repo_console::adapters::memory::{Fault, InMemoryPulp, MemoryOptions, Op};
use repo_console::app::releases::{promote, ReleaseOutcome};
use repo_console::domain::deploy::{Intent, Refusal};
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::identity::Operator;
use repo_console::domain::ids::ReleaseName;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::release::{
    MemberOutcome, ReleaseAsk, ReleaseConfirmation, ReleaseRefusal, Releases, ServedSet,
};
use repo_console::domain::repository::VersionNumber;
use repo_console::ports::AuditSink;

use crate::helpers::*;

pub(crate) const MEMBERS: [&str; 3] = ["baseos", "appstream", "epel"];
/// How long the console waits for a task before its outcome counts as unknown.
const TASK_TIMEOUT: Duration = Duration::from_millis(100);

/// Three repositories with v1..v3; staging serves v2 of each, production v1.
fn world(pulp: &InMemoryPulp) {
    for name in MEMBERS {
        let id = pulp.add_repo(name, verified());
        for n in 1..=3 {
            pulp.add_version(&id, &[&format!("{name}-pkg-{n}")], &[]);
        }
        let v1 = pulp.publish(&id, VersionNumber::new(1));
        let v2 = pulp.publish(&id, VersionNumber::new(2));
        pulp.add_distribution(&format!("{name}-staging"), Some(&v2));
        pulp.add_distribution(&format!("{name}-prod"), Some(&v1));
    }
}

fn environment(name: &str, pattern: &str) -> Environment {
    Environment {
        name: EnvironmentName::parse(name).unwrap(),
        naming: DistributionNaming::new(Some(NamePattern::parse(pattern).unwrap()), Vec::new()),
        requires_previous: false,
    }
}

fn path() -> EnvironmentPath {
    EnvironmentPath::new(vec![
        environment("staging", "{repo}-staging"),
        environment("production", "{repo}-prod"),
    ])
    .unwrap()
}

fn releases(members: &[&str]) -> Releases {
    let name = ReleaseName::parse("el9").unwrap();
    Releases::new([(name, members.iter().map(|m| m.to_string()).collect())]).unwrap()
}

pub(crate) fn app(members: &'static [&'static str]) -> TestAppBuilder<()> {
    let options = MemoryOptions {
        task_delay: Duration::ZERO,
        task_timeout: TASK_TIMEOUT,
        ..Default::default()
    };
    crate::test_app::TestApp::builder()
        .memory(Arc::new(InMemoryPulp::new(options)))
        .world(world)
        .environments(path())
        .configure(move |state| state.releases(releases(members)))
}

/// `member`'s production moved on its own to what its staging serves (v2).
pub(crate) fn promote_alone(memory: &InMemoryPulp, member: &str) {
    let staging = memory.distribution(&format!("{member}-staging")).unwrap();
    let v2 = staging.publication.unwrap();
    memory.point_distribution(&format!("{member}-prod"), &v2);
}

fn production() -> EnvironmentName {
    EnvironmentName::production()
}

/// Production to `to` for every member, expecting it serves `from`.
fn ask(from: u64, to: u64) -> ReleaseAsk {
    ReleaseAsk {
        environment: production(),
        versions: MEMBERS
            .iter()
            .map(|m| (m.to_string(), VersionNumber::new(to)))
            .collect(),
        expected: MEMBERS
            .iter()
            .map(|m| (m.to_string(), Some(VersionNumber::new(from))))
            .collect(),
        confirm: ReleaseConfirmation::ExpectedCurrent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    }
}

fn alice() -> Operator {
    Operator::new("alice").unwrap()
}

/// What each member's production serves once every queued task has run.
pub(crate) fn serving(memory: &InMemoryPulp) -> Vec<Option<u64>> {
    memory.settle_tasks();
    MEMBERS
        .iter()
        .map(|m| {
            memory
                .serving_version(&format!("{m}-prod"))
                .map(|v| v.get())
        })
        .collect()
}

fn ended(outcome: ReleaseOutcome) -> repo_console::domain::release::ReleaseRecord {
    match outcome {
        ReleaseOutcome::Ended(ended) => ended.record,
        other => panic!("expected an ended promotion, got {other:?}"),
    }
}

fn outcomes(record: &repo_console::domain::release::ReleaseRecord) -> Vec<MemberOutcome> {
    record.members.iter().map(|m| m.outcome).collect()
}

/// Every member's outcome agrees with what Pulp serves: moved serves the target, restored
/// and unchanged the previous version; the set is what the members say.
fn assert_truthful(
    case: &str,
    record: &repo_console::domain::release::ReleaseRecord,
    live: &[Option<u64>],
) {
    for (member, live) in record.members.iter().zip(live) {
        if let Some(after) = member.serves_after() {
            assert_eq!(*live, after.map(|v| v.get()), "{case}: {member:?}");
        }
    }
    assert_eq!(
        record.served,
        ServedSet::of(record.members.iter().map(|m| m.outcome)),
        "{case}"
    );
}

#[tokio::test]
async fn a_set_moves_whole_and_is_recorded_once_with_each_member_naming_the_release() {
    let app = app(&MEMBERS).build();
    let record = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    use MemberOutcome::Moved;
    assert_eq!(outcomes(&record), [Moved, Moved, Moved]);
    assert_eq!(record.served, ServedSet::New);
    assert_eq!(serving(&app.memory), [Some(2), Some(2), Some(2)]);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&app.audit_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let release_lines: Vec<_> = lines.iter().filter(|l| l["record"] == "release").collect();
    assert_eq!(release_lines.len(), 1, "one release line");
    assert_eq!(release_lines[0]["served"], "new");
    assert_eq!(release_lines[0]["release"]["name"], "el9");
    let id = release_lines[0]["release"]["id"].clone();
    let member_lines: Vec<_> = lines.iter().filter(|l| l["record"].is_null()).collect();
    assert_eq!(
        member_lines.len(),
        6,
        "started and deployed for each member"
    );
    for line in member_lines {
        assert_eq!(line["release"]["id"], id, "{line}");
    }
    let recent = JsonlAuditSink::new(&app.audit_path)
        .recent_releases(&ReleaseName::parse("el9").unwrap(), 5)
        .await
        .unwrap();
    assert_eq!(recent, vec![record]);
}

#[tokio::test]
async fn when_the_third_move_is_refused_the_first_two_are_put_back_and_it_says_so() {
    let app = app(&MEMBERS).build();
    app.pulp
        .set_once_after(Op::UpdateDistribution, Fault::Http(400), 2);
    let record = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    use MemberOutcome::{Restored, Unchanged};
    assert_eq!(outcomes(&record), [Restored, Restored, Unchanged]);
    assert_eq!(record.served, ServedSet::Old);
    assert!(
        record.error.as_deref().unwrap().contains("epel"),
        "{record:?}"
    );
    assert_eq!(serving(&app.memory), [Some(1), Some(1), Some(1)]);
    assert_truthful("restored", &record, &serving(&app.memory));
}

#[tokio::test]
async fn a_restore_that_fails_too_leaves_a_mix_and_says_which_member_is_where() {
    let app = app(&MEMBERS).build();
    app.pulp
        .set_after(Op::UpdateDistribution, Fault::Http(400), 2);
    let record = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    use MemberOutcome::{Moved, Unchanged};
    assert_eq!(outcomes(&record), [Moved, Moved, Unchanged]);
    assert_eq!(record.served, ServedSet::Mixed);
    let live = serving(&app.memory);
    assert_eq!(live, [Some(2), Some(2), Some(1)]);
    assert_truthful("failed restore", &record, &live);
    let detail = record.members[0].detail.as_deref().unwrap();
    assert!(detail.contains("could not be put back"), "{detail}");
}

#[tokio::test]
async fn a_member_whose_restore_is_refused_and_that_never_moved_is_unchanged_not_restored() {
    let app = app(&MEMBERS).build();
    // The third move is lost on the way (its end unknown, so it is put back), and Pulp
    // refuses every restore: nothing is put back anywhere.
    app.pulp.set_once_after_then(
        Op::UpdateDistribution,
        Fault::Interrupted,
        2,
        Fault::Http(400),
    );
    let record = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    use MemberOutcome::{Moved, Unchanged};
    assert_eq!(outcomes(&record), [Moved, Moved, Unchanged], "{record:?}");
    assert_eq!(record.served, ServedSet::Mixed);
    let live = serving(&app.memory);
    assert_eq!(live, [Some(2), Some(2), Some(1)]);
    assert_truthful(
        "refused restore of a move that never landed",
        &record,
        &live,
    );
    let epel = record.members[2].detail.as_deref().unwrap();
    assert!(epel.contains("put nothing back"), "{epel}");
    assert!(!epel.contains("put back:"), "{epel}");
}

#[tokio::test]
async fn every_fault_on_the_third_move_is_answered_truthfully_for_every_member() {
    let faults = [
        Fault::Http(400),
        Fault::Http(500),
        Fault::Timeout,
        Fault::Reset,
        Fault::Interrupted,
        Fault::Malformed,
        Fault::TaskFailed("worker lost".into()),
        Fault::TaskCanceled,
        Fault::TaskNeverEnds,
        Fault::AppliedThenTimeout,
        Fault::LostAnswer,
    ];
    for fault in faults {
        let case = format!("{fault:?}");
        let app = app(&MEMBERS).build();
        app.pulp.set_once_after(Op::UpdateDistribution, fault, 2);
        let record = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
        tokio::time::sleep(TASK_TIMEOUT).await;
        let live = serving(&app.memory);
        assert_truthful(&case, &record, &live);
        assert_ne!(record.served, ServedSet::New, "{case}");
        assert_eq!(record.members[0].outcome, MemberOutcome::Restored, "{case}");
    }
}

#[tokio::test]
async fn a_failed_publication_moves_nothing() {
    let app = app(&MEMBERS).build();
    app.pulp
        .set_after(Op::CreatePublication, Fault::Http(500), 2);
    // v3 has no publication yet: each member is published.
    let record = ended(promote(&app.state, "el9", &ask(1, 3), &alice()).await);
    assert!(record
        .members
        .iter()
        .all(|m| m.outcome == MemberOutcome::Unchanged));
    assert_eq!(record.served, ServedSet::Old);
    assert_eq!(serving(&app.memory), [Some(1), Some(1), Some(1)]);
    assert!(
        !app.memory
            .calls()
            .iter()
            .any(|c| c.contains("update_distribution")),
        "no distribution touched: {:?}",
        app.memory.calls()
    );
}

#[tokio::test]
async fn a_publication_made_with_the_settings_of_now_is_served_again_and_none_is_made() {
    let first = app(&MEMBERS).build();
    let record = ended(promote(&first.state, "el9", &ask(1, 2), &alice()).await);
    assert_eq!(record.served, ServedSet::New);
    let published = |memory: &InMemoryPulp| {
        let calls = memory.calls();
        calls
            .iter()
            .filter(|c| c.starts_with("create_publication"))
            .count()
    };
    assert_eq!(
        published(&first.memory),
        0,
        "v2 of each member had a publication"
    );
    for member in &record.members {
        let detail = member.detail.as_deref().unwrap_or_default();
        assert!(detail.contains("existing publication"), "{member:?}");
    }
    let fresh = app(&MEMBERS).build();
    ended(promote(&fresh.state, "el9", &ask(1, 3), &alice()).await);
    assert_eq!(
        published(&fresh.memory),
        3,
        "v3 had none: each member is published"
    );
}

#[tokio::test]
async fn a_stale_expected_version_is_refused_naming_the_member_and_nothing_moves() {
    let app = app(&MEMBERS).build();
    let mut stale = ask(1, 2);
    stale
        .expected
        .insert("appstream".into(), Some(VersionNumber::new(3)));
    match promote(&app.state, "el9", &stale, &alice()).await {
        ReleaseOutcome::Refused(ReleaseRefusal::Member {
            repository,
            refusal,
        }) => {
            assert_eq!(repository, "appstream");
            assert!(
                matches!(refusal, Refusal::ProductionMoved { .. }),
                "{refusal:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(serving(&app.memory), [Some(1), Some(1), Some(1)]);
    assert_eq!(
        std::fs::read_to_string(&app.audit_path).unwrap_or_default(),
        ""
    );
}

#[tokio::test]
async fn an_unknown_member_a_missing_member_and_a_set_already_served_are_refused() {
    let ghostly = app(&["baseos", "ghost"]).build();
    let mut asked = ask(1, 2);
    asked.versions = BTreeMap::from([
        ("baseos".into(), VersionNumber::new(2)),
        ("ghost".into(), VersionNumber::new(1)),
    ]);
    asked.expected = BTreeMap::from([
        ("baseos".into(), Some(VersionNumber::new(1))),
        ("ghost".into(), None),
    ]);
    let refused = promote(&ghostly.state, "el9", &asked, &alice()).await;
    assert!(
        matches!(&refused, ReleaseOutcome::Refused(ReleaseRefusal::UnknownMember { repository, .. }) if repository == "ghost"),
        "{refused:?}"
    );

    let app = app(&MEMBERS).build();
    let mut partial = ask(1, 2);
    partial.versions.remove("epel");
    assert!(matches!(
        promote(&app.state, "el9", &partial, &alice()).await,
        ReleaseOutcome::Refused(ReleaseRefusal::MemberMissing { .. })
    ));
    let done = ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    assert_eq!(done.served, ServedSet::New);
    assert!(matches!(
        promote(&app.state, "el9", &ask(2, 2), &alice()).await,
        ReleaseOutcome::Refused(ReleaseRefusal::NothingToPromote { .. })
    ));
}

#[tokio::test]
async fn a_member_already_on_its_target_stays_and_the_others_move() {
    let app = app(&MEMBERS).build();
    let mut asked = ask(1, 2);
    // epel's production already serves v2 (moved on its own before).
    promote_alone(&app.memory, "epel");
    asked
        .expected
        .insert("epel".into(), Some(VersionNumber::new(2)));
    let record = ended(promote(&app.state, "el9", &asked, &alice()).await);
    assert_eq!(record.served, ServedSet::New);
    assert_eq!(record.members[2].outcome, MemberOutcome::Unchanged);
    assert!(record.members[2].deploy_id.is_none());
    assert_eq!(serving(&app.memory), [Some(2), Some(2), Some(2)]);
}

fn needs_one_approval() -> Policy {
    let approvals = Approvals::new(
        std::num::NonZeroU32::new(1).unwrap(),
        vec![Subject::parse("user:bob").unwrap()],
    )
    .unwrap();
    Policy::default().with_approvals(BTreeMap::from([(production(), approvals)]))
}

#[tokio::test]
async fn where_approvals_are_needed_the_release_is_one_request_and_its_approval_runs_it() {
    let app = app(&MEMBERS)
        .requests()
        .configure(|state| state.policy(needs_one_approval()))
        .build();
    let request = match promote(&app.state, "el9", &ask(1, 2), &alice()).await {
        ReleaseOutcome::Requested(request) => request,
        other => panic!("{other:?}"),
    };
    let release = request.release.as_ref().expect("a release's request");
    assert_eq!(release.members.len(), 3);
    assert_eq!(
        serving(&app.memory),
        [Some(1), Some(1), Some(1)],
        "nothing moved yet"
    );
    let again = promote(&app.state, "el9", &ask(1, 2), &alice()).await;
    assert!(
        matches!(&again, ReleaseOutcome::Requested(same) if same.id == request.id),
        "asking again answers the open request: {again:?}"
    );
    let bob = Operator::new("bob").unwrap();
    let acted = repo_console::app::approvals::requests::approve(
        &app.state,
        &request.id,
        &bob,
        repo_console::domain::deploy::Confirmation::Typed("el9".into()),
    )
    .await
    .unwrap();
    match acted {
        repo_console::app::approvals::requests::Acted::ReleaseExecuted { outcome, .. } => {
            let record = ended(*outcome);
            assert_eq!(record.served, ServedSet::New);
            assert_eq!(record.request.as_ref().unwrap().request_id, request.id);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(serving(&app.memory), [Some(2), Some(2), Some(2)]);
}

const CI: &str = "ci-token-text";

async fn api_app() -> crate::test_app::TestApp<()> {
    let callers = BearerTokens::new(
        vec![crate::tokens::token("ci", CI, &[], &["deploy:production"])],
        None,
        Arc::new(repo_console::adapters::clock_system::SystemClock),
    );
    app(&MEMBERS).tokens(callers).spawn().await
}

async fn post(app: &crate::test_app::TestApp<()>, body: &serde_json::Value, token: &str) -> Reply {
    let bearer = format!("Bearer {token}");
    let headers = [
        ("content-type", "application/json"),
        ("authorization", bearer.as_str()),
    ];
    app.client
        .send(
            "POST",
            "/api/v1/releases/el9/promotions",
            &headers,
            &body.to_string(),
        )
        .await
}

#[tokio::test]
async fn the_api_lists_shows_and_promotes_a_release_and_refuses_a_stale_one_naming_the_member() {
    let app = api_app().await;
    let list: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/releases").await.body).unwrap();
    assert_eq!(list["items"][0]["name"], "el9");
    assert_eq!(list["items"][0]["members"], serde_json::json!(MEMBERS));
    let shown = app.get("/api/v1/releases/el9").await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    let detail: serde_json::Value = serde_json::from_str(&shown.body).unwrap();
    assert_eq!(detail["environments"][1]["environment"], "production");
    assert_eq!(detail["environments"][1]["proposed"]["epel"], 2, "{detail}");
    assert_eq!(detail["members"][0]["environments"][1]["version"], 1);
    assert_eq!(app.get("/api/v1/releases/nope").await.status, 404);

    let stale = serde_json::json!({
        "environment": "production",
        "versions": {"baseos": 2, "appstream": 2, "epel": 2},
        "expected_current": {"baseos": 1, "appstream": 3, "epel": 1},
    });
    let refused = post(&app, &stale, CI).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    let error: serde_json::Value = serde_json::from_str(&refused.body).unwrap();
    assert_eq!(error["error"]["code"], "moved");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("appstream"),
        "{error}"
    );
    assert_eq!(post(&app, &stale, "wrong").await.status, 401);

    let good = serde_json::json!({
        "environment": "production",
        "versions": {"baseos": 2, "appstream": 2, "epel": 2},
        "expected_current": {"baseos": 1, "appstream": 1, "epel": 1},
    });
    let staging = serde_json::json!({
        "environment": "staging",
        "versions": {"baseos": 3, "appstream": 3, "epel": 3},
        "expected_current": {"baseos": 2, "appstream": 2, "epel": 2},
    });
    let out_of_scope = post(&app, &staging, CI).await;
    assert_eq!(
        out_of_scope.status, 403,
        "a deploy:production token promotes no staging: {}",
        out_of_scope.body
    );
    let done = post(&app, &good, CI).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let outcome: serde_json::Value = serde_json::from_str(&done.body).unwrap();
    assert_eq!(outcome["promotion"]["served"], "new");
    let doc: serde_json::Value =
        serde_json::from_str(&app.get("/api/v1/openapi.json").await.body).unwrap();
    let promotions = "/api/v1/releases/{name}/promotions";
    for (reply, template, method) in [
        (&done, promotions, "post"),
        (&refused, promotions, "post"),
        (&shown, "/api/v1/releases/{name}", "get"),
    ] {
        crate::json_api::check(&doc, template, method, reply).unwrap();
    }
    assert_eq!(outcome["promotion"]["members"][1]["outcome"], "moved");
    let ghost = serde_json::json!({
        "environment": "production",
        "versions": {"baseos": 2, "appstream": 2, "epel": 2, "ghost": 1},
        "expected_current": {"baseos": 2, "appstream": 2, "epel": 2, "ghost": null},
    });
    assert_eq!(post(&app, &ghost, CI).await.status, 422);
}

#[tokio::test]
async fn a_release_cannot_walk_around_the_checks_a_member_needs() {
    use repo_console::domain::check::CheckName;
    use repo_console::domain::policy::checks::CheckPolicy;
    let required = BTreeMap::from([(production(), vec![CheckName::parse("smoke").unwrap()])]);
    let policy =
        Policy::default().with_checks(CheckPolicy::new(required, Default::default(), None));
    let app = app(&MEMBERS)
        .configure(move |state| state.policy(policy))
        .build();
    match promote(&app.state, "el9", &ask(1, 2), &alice()).await {
        ReleaseOutcome::Refused(ReleaseRefusal::Member { refusal, .. }) => {
            assert!(
                matches!(refusal, Refusal::ChecksMissing { .. }),
                "{refusal:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        serving(&app.memory),
        [Some(1), Some(1), Some(1)],
        "nothing moved"
    );
}

#[tokio::test]
async fn each_member_of_a_release_counts_as_a_deploy_asked_release() {
    let app = app(&MEMBERS).spawn().await;
    ended(promote(&app.state, "el9", &ask(1, 2), &alice()).await);
    let refused = promote(&app.state, "el9", &ask(1, 2), &alice()).await;
    assert!(matches!(refused, ReleaseOutcome::Refused(_)), "{refused:?}");
    let metrics = app.get("/metrics").await.body;
    let sample = |series: &str| {
        metrics
            .lines()
            .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
            .map(str::to_owned)
    };
    assert_eq!(
        sample(r#"repo_console_deploys_total{outcome="deployed",asked="release",environment="production"}"#)
            .as_deref(),
        Some("3"),
        "one deployed per member:\n{metrics}"
    );
    assert_eq!(
        sample(r#"repo_console_deploys_total{outcome="refused",asked="release",environment="production"}"#)
            .as_deref(),
        Some("3"),
        "a refused promotion counts each member refused:\n{metrics}"
    );
    assert_eq!(
        sample("repo_console_deploy_duration_seconds_count").as_deref(),
        Some("3")
    );
}

/// Issue 46: a release holds Debian and RPM members together: one promotion moves both (the
/// Debian one published with pulp_deb's addresses, its `deb/apt` distribution moved), all or
/// none, recorded once.
#[tokio::test]
async fn a_release_of_a_debian_and_an_rpm_member_moves_both() {
    fn mixed(pulp: &InMemoryPulp) {
        world(pulp);
        let signed = repo_console::domain::repository::RepoVerification {
            content_type: repo_console::domain::content::kind::ContentType::Deb,
            metadata_signed: Some(true),
            ..Default::default()
        };
        let id = pulp.add_repo("bookworm", signed);
        for version in ["1.0-1", "1.0-1+deb12u1", "1:0.9-1"] {
            pulp.add_version(&id, &[&format!("hello_{version}_amd64")], &[]);
        }
        let v1 = pulp.publish(&id, VersionNumber::new(1));
        let v2 = pulp.publish(&id, VersionNumber::new(2));
        pulp.add_deb_distribution("bookworm-staging", Some(&v2));
        pulp.add_deb_distribution("bookworm-prod", Some(&v1));
    }
    const MIXED: [&str; 2] = ["baseos", "bookworm"];
    let options = MemoryOptions {
        task_delay: Duration::ZERO,
        task_timeout: TASK_TIMEOUT,
        ..Default::default()
    };
    let app = crate::test_app::TestApp::builder()
        .memory(Arc::new(InMemoryPulp::new(options)))
        .world(mixed)
        .environments(path())
        .configure(|state| state.releases(releases(&MIXED)))
        .build();
    let ask = ReleaseAsk {
        versions: MIXED
            .iter()
            .map(|m| (m.to_string(), VersionNumber::new(2)))
            .collect(),
        expected: MIXED
            .iter()
            .map(|m| (m.to_string(), Some(VersionNumber::new(1))))
            .collect(),
        ..ask(1, 2)
    };
    let record = ended(promote(&app.state, "el9", &ask, &alice()).await);
    assert_eq!(
        outcomes(&record),
        [MemberOutcome::Moved, MemberOutcome::Moved]
    );
    assert_eq!(record.served, ServedSet::New);
    app.memory.settle_tasks();
    for member in MIXED {
        let served = app.memory.serving_version(&format!("{member}-prod"));
        assert_eq!(served.map(|v| v.get()), Some(2), "{member}");
    }
    let debian = app.memory.distribution("bookworm-prod").unwrap();
    assert!(
        debian.href.as_str().contains("/deb/apt/"),
        "the Debian member's distribution is pulp_deb's: {}",
        debian.href.as_str()
    );
}
