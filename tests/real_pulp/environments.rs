//! Environments (issue 23) against the real Pulp: rc-envs goes testing -> staging ->
//! production (`{repo}-testing`, `{repo}-staging`, `{repo}-prod`; production requires the
//! previous environment). Each step is checked in Pulp itself (which publication, of which
//! version, each distribution serves) and on the console's pages.

use std::sync::Arc;

use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::repository::RepoId;
use scraper::Html;
use serde_json::json;

use super::console::{attr, over_upstream, select, select_in, text, Console};
use super::support::{exclusive, required_pulp, TestPulp};

pub(super) const REPO: &str = "rc-envs";
/// The environments in order, with their distributions' patterns and requires_previous.
const PATH: [(&str, &str, bool); 3] = [
    ("testing", "{repo}-testing", false),
    ("staging", "{repo}-staging", false),
    ("production", "{repo}-prod", true),
];

pub(super) fn environment_path() -> EnvironmentPath {
    let environments = PATH
        .iter()
        .map(|(name, pattern, requires_previous)| Environment {
            name: EnvironmentName::parse(name).expect("a name"),
            naming: DistributionNaming::new(
                Some(NamePattern::parse(pattern).expect("a pattern")),
                [],
            ),
            requires_previous: *requires_previous,
        })
        .collect();
    EnvironmentPath::new(environments).expect("a valid path")
}

/// rc-envs in Pulp, its distributions in path order, the publications of v1..v3, and a
/// console configured with the path.
struct Envs {
    pulp: TestPulp,
    id: RepoId,
    /// The distributions' hrefs, testing, staging, production.
    dists: Vec<String>,
    /// The publications of v1, v2, v3.
    publications: Vec<String>,
    console: Console,
}

impl Envs {
    /// Every environment back at v1 (an earlier run may have moved them), and a console.
    async fn at_v1(pulp: TestPulp) -> Self {
        let id = pulp.repo_id(REPO);
        let repo = pulp
            .href_named("repositories/rpm/rpm/", REPO)
            .expect("seeded: run scripts/pulp/seed.sh");
        let dists = PATH
            .iter()
            .map(|(_, pattern, _)| {
                let name = pattern.replace("{repo}", REPO);
                pulp.href_named("distributions/rpm/rpm/", &name)
                    .unwrap_or_else(|| panic!("no distribution {name}: run scripts/pulp/seed.sh"))
            })
            .collect();
        let publications = (1..=3).map(|n| pulp.publication_of(&repo, n)).collect();
        let console = over_upstream(Arc::new(pulp.client()), 25)
            .environments(environment_path())
            .spawn()
            .await;
        let envs = Self {
            pulp,
            id,
            dists,
            publications,
            console,
        };
        envs.reset();
        envs
    }

    /// Points every distribution at v1's publication with Pulp's API.
    fn reset(&self) {
        for dist in &self.dists {
            self.point(dist, 1);
        }
        assert_eq!(self.serving(), [1, 1, 1]);
    }

    /// Points `dist` at the publication of version `n` with Pulp's API (waits for the task).
    fn point(&self, dist: &str, n: usize) {
        let publication = &self.publications[n - 1];
        self.pulp
            .raw_ok("PATCH", dist, Some(&json!({ "publication": publication })));
    }

    /// What Pulp says each distribution serves: its publication's version of rc-envs.
    fn serving(&self) -> [u64; 3] {
        let marker = format!("/repositories/rpm/rpm/{}/versions/", self.id);
        let mut versions = [0; 3];
        for (slot, dist) in versions.iter_mut().zip(&self.dists) {
            let publication = self.pulp.raw_ok("GET", dist, None)["publication"]
                .as_str()
                .unwrap_or_else(|| panic!("{dist} serves a publication"))
                .to_owned();
            let (version, number) = self.pulp.publication_version(&publication);
            assert!(version.contains(&marker), "{dist} serves {version}");
            *slot = number;
        }
        versions
    }

    async fn page(&self, path: &str) -> Html {
        let reply = self.console.get(path).await;
        assert_eq!(reply.status, 200, "{path}: {}", reply.body);
        Html::parse_document(&reply.body)
    }

    async fn versions(&self) -> Html {
        self.page(&format!("/repos/{}/versions", self.id)).await
    }

    async fn confirm(&self, env: &str, version: u64) -> Html {
        let path = format!(
            "/repos/{}/deploy/confirm?version={version}&env={env}",
            self.id
        );
        self.page(&path).await
    }

    /// The deploy form as the confirm step sends it, the repository's name typed.
    async fn deploy(&self, env: &str, version: u64, live: u64) -> super::console::Reply {
        let form = format!("version={version}&env={env}&confirm={REPO}&live={live}");
        self.console
            .post(&format!("/repos/{}/deploy", self.id), &form)
            .await
    }
}

/// A test that fails half-way still puts the distributions back (best effort: the PATCHes
/// are sent, their tasks not awaited; the next run resets them anyway).
impl Drop for Envs {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let body = json!({ "publication": self.publications[0] });
            for dist in &self.dists {
                self.pulp.raw("PATCH", dist, Some(&body));
            }
        }
    }
}

/// Each environment's element on the versions page: (data-env, data-env-version).
fn env_cards(versions: &Html) -> Vec<(String, String)> {
    select(versions, "li[data-env]")
        .iter()
        .map(|e| {
            (
                attr(e, "data-env").to_owned(),
                attr(e, "data-env-version").to_owned(),
            )
        })
        .collect()
}

fn cards(versions: [&str; 3]) -> Vec<(String, String)> {
    PATH.iter()
        .zip(versions)
        .map(|((name, _, _), v)| ((*name).to_owned(), v.to_owned()))
        .collect()
}

/// The names of the environments whose element on the versions page shows drift.
fn drifting(versions: &Html) -> Vec<String> {
    select(versions, "li[data-env]")
        .iter()
        .filter(|e| !select_in(e, "[data-env-drift]").is_empty())
        .map(|e| attr(e, "data-env").to_owned())
        .collect()
}

fn serving_envs(versions: &Html, n: u64) -> String {
    let row = select(versions, &format!("tr[data-version='{n}']"));
    assert_eq!(row.len(), 1, "one row for v{n}");
    attr(&row[0], "data-serving-envs").to_owned()
}

/// A hidden field of the confirm step's form.
fn field(confirm: &Html, name: &str) -> String {
    let input = select(confirm, &format!("form input[name={name}]"));
    assert_eq!(input.len(), 1, "{name} in {}", confirm.html());
    attr(&input[0], "value").to_owned()
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_version_goes_through_testing_staging_and_production_in_pulp() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let envs = Envs::at_v1(pulp).await;
    let started = std::time::Instant::now();

    // v3 to testing: only testing moves.
    let reply = envs.deploy("testing", 3, 1).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(envs.serving(), [3, 1, 1]);
    let versions = envs.versions().await;
    assert_eq!(env_cards(&versions), cards(["3", "1", "1"]));
    assert_eq!(serving_envs(&versions, 3), "testing");
    assert_eq!(serving_envs(&versions, 1), "staging production");
    let lines = envs.console.audit_lines();
    let ended = lines.last().expect("audit lines");
    assert_eq!(
        (ended["outcome"].as_str(), ended["target_version"].as_u64()),
        (Some("deployed"), Some(3)),
        "{lines:?}"
    );
    for line in &lines {
        assert_eq!(
            (line["environment"].as_str(), line["distribution"].as_str()),
            (Some("testing"), Some("rc-envs-testing")),
            "{line}"
        );
    }

    // Out of order: staging never served v2 (testing went v1 -> v3); a warning only, since
    // staging does not require testing.
    let confirm = envs.confirm("staging", 2).await;
    let warning = select(&confirm, "[data-warning=out-of-order]");
    assert_eq!(warning.len(), 1, "{}", confirm.html());
    assert_eq!(attr(&warning[0], "data-skips"), "testing");

    // Production refuses v3: staging never served it. Its confirm step already says so
    // (409, no form to confirm), and the POST changes nothing in Pulp.
    let path = format!("/repos/{}/deploy/confirm?version=3&env=production", envs.id);
    let confirm = envs.console.get(&path).await;
    assert_eq!(confirm.status, 409, "{}", confirm.body);
    assert!(
        confirm.body.contains("never went through staging")
            && select(&confirm.html(), "input[name=confirm]").is_empty(),
        "{}",
        confirm.body
    );
    let refused = envs.deploy("production", 3, 1).await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(envs.serving(), [3, 1, 1], "Pulp unchanged");

    // Promote v3 to staging the way the page offers it, then to production.
    let promote = select(
        &versions,
        "button[data-promote-env=staging][data-promote-version='3']",
    );
    assert_eq!(promote.len(), 1, "{}", versions.html());
    let confirm = envs.page(attr(&promote[0], "hx-get")).await;
    assert!(select(&confirm, "[data-warning=out-of-order]").is_empty());
    let (env, version, live) = (
        field(&confirm, "env"),
        field(&confirm, "version"),
        field(&confirm, "live"),
    );
    assert_eq!(
        (env.as_str(), version.as_str(), live.as_str()),
        ("staging", "3", "1")
    );
    let reply = envs.deploy(&env, 3, 1).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(envs.serving(), [3, 3, 1]);

    let confirm = envs.confirm("production", 3).await;
    assert!(
        select(&confirm, "[data-warning=out-of-order]").is_empty(),
        "staging served v3: in order now"
    );
    let reply = envs.deploy("production", 3, 1).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(envs.serving(), [3, 3, 3]);
    let versions = envs.versions().await;
    assert_eq!(env_cards(&versions), cards(["3", "3", "3"]));
    assert_eq!(serving_envs(&versions, 3), "testing staging production");
    assert!(drifting(&versions).is_empty(), "{}", versions.html());

    // Staging changed with Pulp's API, behind the console's back.
    envs.point(&envs.dists[1], 2);
    assert_eq!(envs.serving(), [3, 2, 3]);
    let versions = envs.versions().await;
    assert_eq!(env_cards(&versions), cards(["3", "2", "3"]));
    assert_eq!(drifting(&versions), ["staging"], "{}", versions.html());

    let history = envs
        .page(&format!("/repos/{}/history?env=staging", envs.id))
        .await;
    let entries = select(&history, "li[data-history-entry]");
    assert!(entries.len() >= 2, "{}", history.html());
    for entry in &entries {
        assert_eq!(attr(entry, "data-env"), "staging", "{}", text(entry));
    }
    println!(
        "TIMING environments (rc-envs, testing -> staging -> production): {:.1} s",
        started.elapsed().as_secs_f64()
    );

    envs.reset();
}
