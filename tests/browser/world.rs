//! The world of the scenarios (an in-memory Pulp built for them) and the suite's console
//! over it, built with the common test harness (`tests/common/test_app`).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::memory::{InMemoryPulp, SyncScript};
use repo_console::adapters::web;
use repo_console::domain::identity::Operator;
use repo_console::domain::repository::{RepoId, RepoVerification, VersionNumber};

use crate::test_app::{TestApp, TestAppBuilder};
pub use crate::verified::verified;

/// An operator named `name`, of `groups`, as a fixed identity.
pub fn operator(name: &str, groups: &[&str]) -> Arc<FixedOperator> {
    let operator = Operator::new(name)
        .expect("a valid operator name")
        .with_groups(groups.iter().map(|g| (*g).to_owned()).collect());
    Arc::new(FixedOperator(operator))
}

/// A repository name that is HTML: it must show as text, never run.
pub const HOSTILE: &str =
    r#"<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>&amp;"#;

pub struct World {
    /// Verified; v0..v5; production `rhel9-baseos-prod` serves v3; a ~2 s sync that succeeds.
    pub baseos: RepoId,
    /// gpgcheck off (not verified); v0..v3, production serves v2; a sync that fails.
    pub tools: RepoId,
    /// Partly verified; no remote.
    pub vendor: RepoId,
    /// Verified, never deployed; configured production serves nothing (the failure scenario).
    pub appstream: RepoId,
}

/// The suite's console; its fixture is the [`World`].
pub type App = TestApp<World>;

fn packages(prefix: &str, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("{prefix}-{i}.0-1.el9.x86_64"))
        .collect()
}

fn add(pulp: &InMemoryPulp, id: &RepoId, adds: &[String], removes: &[String]) {
    let a: Vec<&str> = adds.iter().map(String::as_str).collect();
    let r: Vec<&str> = removes.iter().map(String::as_str).collect();
    pulp.add_version(id, &a, &r);
}

pub fn build(pulp: &InMemoryPulp) -> World {
    let baseos = pulp.add_repo("rhel9-baseos", verified());
    add(pulp, &baseos, &packages("glibc", 312), &[]);
    add(
        pulp,
        &baseos,
        &packages("openssl", 9),
        &packages("glibc", 2),
    );
    add(pulp, &baseos, &packages("kernel", 4), &[]);
    add(pulp, &baseos, &packages("curl", 2), &packages("openssl", 5));
    add(
        pulp,
        &baseos,
        &packages("systemd", 11),
        &packages("kernel", 1),
    );
    let live = pulp.publish(&baseos, VersionNumber::new(3));
    pulp.add_distribution("rhel9-baseos-prod", Some(&live));
    pulp.add_remote(
        &baseos,
        SyncScript::Succeeds {
            duration: Duration::from_secs(2),
            add: packages("security-fix", 24),
            remove: vec![],
        },
    );

    let off = RepoVerification {
        gpgcheck: Some(false),
        repo_gpgcheck: Some(false),
        checksum: None,
        metadata_signed: Some(false),
        ..Default::default()
    };
    let tools = pulp.add_repo("internal-tools", off);
    for step in 1..=3 {
        add(pulp, &tools, &packages(&format!("tool{step}"), 6), &[]);
    }
    let tools_live = pulp.publish(&tools, VersionNumber::new(2));
    pulp.add_distribution("internal-tools-prod", Some(&tools_live));
    pulp.add_remote(
        &tools,
        SyncScript::Fails {
            duration: Duration::from_millis(600),
            reason: "Cannot connect to host tools.corp.example:443 ssl:default [Name or service not known]".into(),
        },
    );

    let partial = RepoVerification {
        repo_gpgcheck: Some(false),
        ..verified()
    };
    let vendor = pulp.add_repo("vendor-drivers", partial);
    add(pulp, &vendor, &packages("kmod-vendor", 12), &[]);
    add(pulp, &vendor, &packages("kmod-extra", 3), &[]);
    let vendor_live = pulp.publish(&vendor, VersionNumber::new(1));
    pulp.add_distribution("vendor-drivers-prod", Some(&vendor_live));

    let appstream = pulp.add_repo("epel9-appstream", verified());
    add(pulp, &appstream, &packages("app", 40), &[]);
    add(pulp, &appstream, &packages("app-more", 7), &[]);
    pulp.add_distribution("epel9-appstream-prod", None);

    World {
        baseos,
        tools,
        vendor,
        appstream,
    }
}

/// A one-repository upstream whose only repository has [`HOSTILE`] as its name.
pub fn build_hostile(pulp: &InMemoryPulp) -> RepoId {
    let id = pulp.add_repo(HOSTILE, verified());
    add(pulp, &id, &packages("h", 3), &[]);
    add(pulp, &id, &packages("h2", 2), &[]);
    let live = pulp.publish(&id, VersionNumber::new(1));
    pulp.add_distribution("hostile-prod", Some(&live));
    id
}

/// A 500-character name without spaces, and a right-to-left one with an override mark.
pub fn long_names() -> [String; 2] {
    [
        format!("z{}", "verylongrepositoryname".repeat(23))
            .chars()
            .take(500)
            .collect(),
        "\u{202E}\u{5de}\u{5d0}\u{5d2}\u{5e8} \u{627}\u{644}\u{62d}\u{632}\u{645} 'q' \"dq\""
            .to_owned(),
    ]
}

/// An upstream whose repositories have [`long_names`]; answers their ids.
pub fn build_long_names(pulp: &InMemoryPulp) -> Vec<RepoId> {
    long_names()
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let id = pulp.add_repo(name, verified());
            add(pulp, &id, &packages("l", 3), &[]);
            let live = pulp.publish(&id, VersionNumber::new(1));
            pulp.add_distribution(&format!("long-{i}-prod"), Some(&live));
            add(pulp, &id, &packages("l2", 2), &[]);
            id
        })
        .collect()
}

/// The builder of the suite's consoles over `build`'s upstream: 150 ms tasks, the system
/// clock, the audit recorded in memory, and the configured production of epel9-appstream.
pub fn suite_app<W>(build: impl FnOnce(&InMemoryPulp) -> W + Send + 'static) -> TestAppBuilder<W> {
    TestApp::builder()
        .world(build)
        .task_delay(Duration::from_millis(150))
        .clock(Arc::new(SystemClock))
        .recording_audit()
        .production(HashMap::from([(
            "epel9-appstream".to_owned(),
            "epel9-appstream-prod".to_owned(),
        )]))
        .edge(web::EdgeSettings {
            shutdown_grace: Duration::from_secs(5),
            ..web::EdgeSettings::default()
        })
}

pub async fn spawn_app() -> App {
    suite_app(build).spawn().await
}
