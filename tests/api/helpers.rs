//! The API suite's fixture (repositories of every kind in the in-memory upstream) and its
//! console: [`fixture_app`] is the common test harness's builder over it, [`spawn_app`] that
//! console served as most tests want it.

use std::collections::HashMap;
use std::sync::Arc;

pub use crate::test_app::{pinned_time, TestAppBuilder};
pub use crate::verified::verified;
pub use crate::web::{attr, enc, select, text, Reply, WebClient};
use repo_console::adapters::memory::{FaultyPulp, InMemoryPulp};
use repo_console::adapters::web;
use repo_console::app::deploy::{deploy, DeployOutcome};
use repo_console::app::AppState;
use repo_console::domain::deploy::{DeployRequest, Intent, SeenLive};
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::{
    RepoId, RepoVerification, Screen, VersionNumber, VERSIONS_PER_SCREEN,
};

pub const HOSTILE: &str = r#"<script>alert("x")</script> 'q' & "dq""#;

/// A deploy of version `target`, confirmed with `confirm`, from a client that does not say
/// what it saw live (a script).
pub fn deploy_request(target: u64, confirm: &str) -> DeployRequest {
    DeployRequest {
        target: VersionNumber::new(target),
        environment: repo_console::domain::environment::EnvironmentName::production(),
        confirm: confirm.into(),
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    }
}

/// Version 4 of `repo` (base-os in the fixture) deployed through the use case, confirmed
/// with "base-os", by a script that names no operator.
pub async fn deploy_v4(state: &AppState, repo: &RepoId) -> DeployOutcome {
    let request = deploy_request(4, "base-os");
    deploy(state, repo, &request, &Operator::placeholder()).await
}

/// Fails unless `outcome` is a deploy that ran.
pub fn assert_deployed(outcome: &DeployOutcome) {
    assert!(
        matches!(outcome, DeployOutcome::Deployed { .. }),
        "{outcome:?}"
    );
}

/// The versions page's first screen.
pub fn first_screen() -> Screen {
    Screen::new(0, VERSIONS_PER_SCREEN)
}

/// The repositories of the test upstream.
pub struct Fixture {
    /// Verified; v0..v4; production "base-os-prod" serves v2.
    pub base_os: RepoId,
    /// gpgcheck off.
    pub tools: RepoId,
    /// gpgcheck on, repo_gpgcheck off.
    pub partial: RepoId,
    /// Verified, never deployed; configured production "fresh-prod" serves nothing.
    pub fresh: RepoId,
    /// Verified, no production distribution at all.
    pub orphan: RepoId,
    /// Verified, with a hostile name; production serves v1.
    pub hostile: RepoId,
}

/// How many content reads (packages, advisories, builds by name) the in-memory Pulp answered.
pub fn content_calls(memory: &InMemoryPulp) -> usize {
    memory
        .calls()
        .iter()
        .filter(|c| {
            c.starts_with("packages ")
                || c.starts_with("advisories ")
                || c.starts_with("package_builds ")
        })
        .count()
}

pub fn fixture(pulp: &InMemoryPulp) -> Fixture {
    let base_os = pulp.add_repo("base-os", verified());
    pulp.add_version(&base_os, &["bash-5.1", "glibc-2.34", "curl-7.76"], &[]);
    pulp.add_version(&base_os, &["openssl-3.0", "vim-8.2"], &[]);
    pulp.add_version(
        &base_os,
        &["curl-7.77"],
        &["curl-7.76", "vim-8.2", "bash-5.1"],
    );
    pulp.add_version(&base_os, &["zlib-1.2", "xz-5.2"], &[]);
    let live = pulp.publish(&base_os, VersionNumber::new(2));
    pulp.add_distribution("base-os-prod", Some(&live));

    let tools = pulp.add_repo(
        "tools",
        RepoVerification {
            gpgcheck: Some(false),
            repo_gpgcheck: Some(false),
            checksum: None,
            metadata_signed: Some(false),
            ..Default::default()
        },
    );
    pulp.add_version(&tools, &["t-1"], &[]);
    pulp.add_version(&tools, &["t-2"], &[]);
    let tools_pub = pulp.publish(&tools, VersionNumber::new(1));
    pulp.add_distribution("tools-prod", Some(&tools_pub));

    let partial = pulp.add_repo(
        "partial",
        RepoVerification {
            repo_gpgcheck: Some(false),
            ..verified()
        },
    );
    pulp.add_version(&partial, &["p-1"], &[]);

    let fresh = pulp.add_repo("fresh", verified());
    pulp.add_version(&fresh, &["f-1", "f-2"], &[]);
    pulp.add_distribution("fresh-prod", None);

    let orphan = pulp.add_repo("orphan", verified());
    pulp.add_version(&orphan, &["o-1"], &[]);

    let hostile = pulp.add_repo(HOSTILE, verified());
    pulp.add_version(&hostile, &["h-1"], &[]);
    pulp.add_version(&hostile, &["h-2"], &[]);
    let hostile_pub = pulp.publish(&hostile, VersionNumber::new(1));
    pulp.add_distribution("hostile-prod", Some(&hostile_pub));

    Fixture {
        base_os,
        tools,
        partial,
        fresh,
        orphan,
        hostile,
    }
}

/// The API suite's console: the common [`crate::test_app::TestApp`] over the [`Fixture`].
pub type TestApp = crate::test_app::TestApp<Fixture>;

/// The builder of the fixture's console: the in-memory upstream holds the [`Fixture`], and
/// the configured production distribution of "fresh" is "fresh-prod"; everything else is
/// the harness's default (see `tests/common/test_app/builder.rs`).
pub fn fixture_app() -> TestAppBuilder<Fixture> {
    crate::test_app::TestApp::builder()
        .world(fixture)
        .production(HashMap::from([(
            "fresh".to_owned(),
            "fresh-prod".to_owned(),
        )]))
}

/// The fixture's console state over `memory` (already filled), its audit in `audit_path`,
/// not served; and the fault injector in front of `memory`.
pub fn test_state(
    memory: &Arc<InMemoryPulp>,
    audit_path: &std::path::Path,
) -> (AppState, Arc<FaultyPulp>) {
    let standing = crate::test_app::TestApp::builder()
        .memory(memory.clone())
        .audit_file(audit_path)
        .production(HashMap::from([(
            "fresh".to_owned(),
            "fresh-prod".to_owned(),
        )]))
        .build();
    (standing.state, standing.pulp)
}

/// The console over the fixture, served on a free port of 127.0.0.1.
pub async fn spawn_app() -> TestApp {
    fixture_app()
        .edge(web::EdgeSettings {
            shutdown_grace: std::time::Duration::from_secs(5),
            ..web::EdgeSettings::default()
        })
        .spawn()
        .await
}
