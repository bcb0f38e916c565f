//! Exposure (issue 37) against the real Pulp: rc-xp-app (testing serves v3, production v1;
//! no staging distribution) and rc-xp-other (production v1, none of the xp packages), with
//! advisories uploaded with `references` naming CVEs (scripts/pulp/seed.sh). Every state a
//! real Pulp can give (served, absent, affected, fixed), the CSV, the CVE index built from
//! Pulp's references, a warm question reading no package, and a promotion through the
//! console flipping production from affected to fixed.

use std::sync::Arc;

use repo_console::adapters::pulp::PulpSettings;
use repo_console::domain::environment::EnvironmentPath;
use repo_console::domain::repository::RepoId;
use serde_json::{json, Value};

use super::console::{over_upstream, Console, Counting};
use super::support::{exclusive, required_pulp, TestPulp};

const REPO: &str = "rc-xp-app";

/// testing, staging, production (`{repo}-testing`, `{repo}-staging`, `{repo}-prod`), none
/// requiring the one before (rc-xp-app has no staging distribution).
fn environment_path() -> EnvironmentPath {
    let mut environments: Vec<_> = super::environments::environment_path()
        .iter()
        .cloned()
        .collect();
    for environment in &mut environments {
        environment.requires_previous = false;
    }
    EnvironmentPath::new(environments).expect("a valid path")
}

struct Exposure {
    pulp: TestPulp,
    id: RepoId,
    /// rc-xp-app-testing, rc-xp-app-prod.
    dists: [String; 2],
    /// The publications of v1, v3.
    publications: [String; 2],
    console: Console,
}

impl Exposure {
    async fn start(
        pulp: TestPulp,
        upstream: Arc<Counting<repo_console::adapters::pulp::PulpClient>>,
    ) -> Self {
        let repo = pulp
            .href_named("repositories/rpm/rpm/", REPO)
            .expect("seeded: run scripts/pulp/seed.sh");
        let dist = |name: &str| {
            pulp.href_named("distributions/rpm/rpm/", name)
                .unwrap_or_else(|| panic!("no {name}: run scripts/pulp/seed.sh"))
        };
        let dists = [dist("rc-xp-app-testing"), dist("rc-xp-app-prod")];
        let publications = [pulp.publication_of(&repo, 1), pulp.publication_of(&repo, 3)];
        let console = over_upstream(upstream, 25)
            .environments(environment_path())
            .spawn()
            .await;
        let exposure = Self {
            id: pulp.repo_id(REPO),
            pulp,
            dists,
            publications,
            console,
        };
        exposure.point(1, 1); // production v1
        exposure.point(0, 3); // testing v3
        exposure
    }

    /// Points distribution `dist` (0 testing, 1 production) at version `n` (1 or 3).
    fn point(&self, dist: usize, n: u64) {
        let publication = &self.publications[usize::from(n == 3)];
        self.pulp.raw_ok(
            "PATCH",
            &self.dists[dist],
            Some(&json!({ "publication": publication })),
        );
    }

    async fn json(&self, query: &str) -> Value {
        let reply = self.console.get(&format!("/api/v1/exposure?{query}")).await;
        assert_eq!(reply.status, 200, "{query}: {}", reply.body);
        serde_json::from_str(&reply.body).unwrap()
    }
}

/// Production back at v1 even when a test fails half-way (best effort: the task is not awaited).
impl Drop for Exposure {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let body = json!({ "publication": self.publications[0] });
            self.pulp.raw("PATCH", &self.dists[1], Some(&body));
        }
    }
}

fn cell<'a>(body: &'a Value, repo: &str, env: &str) -> &'a Value {
    body["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["repository"] == repo && r["environment"] == env)
        .unwrap_or_else(|| panic!("no row {repo} {env}: {body}"))
}

fn state(body: &Value, repo: &str, env: &str) -> String {
    cell(body, repo, env)["state"].as_str().unwrap().to_owned()
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn exposure_of_a_package_an_advisory_and_a_cve_across_the_real_pulp_and_a_promotion_flipping_it(
) {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let client = repo_console::adapters::pulp::PulpClient::new(PulpSettings { ..pulp.settings() })
        .expect("settings");
    let counting = Arc::new(Counting::new(client));
    let xp = Exposure::start(pulp, counting.clone()).await;

    let package = xp.json("package=xp-ssl").await;
    assert_eq!(state(&package, REPO, "testing"), "served");
    assert_eq!(
        state(&package, REPO, "staging"),
        "absent",
        "no rc-xp-app-staging"
    );
    assert_eq!(state(&package, REPO, "production"), "served");
    assert_eq!(state(&package, "rc-xp-other", "production"), "absent");
    let testing = cell(&package, REPO, "testing");
    assert_eq!(testing["version"], 3);
    assert_eq!(
        testing["packages"],
        json!([{"name": "xp-ssl", "arch": "noarch", "evr": "1.1-1"}])
    );
    assert_eq!(
        testing["older_builds_served"],
        json!([{"name": "xp-ssl", "arch": "noarch", "evr": "1.0-1"}])
    );

    let below = xp.json("package=xp-ssl&below=1.1").await;
    assert_eq!(state(&below, REPO, "testing"), "fixed");
    assert_eq!(state(&below, REPO, "production"), "affected");
    assert_eq!(cell(&below, REPO, "production")["fixed_in"], 3);

    let advisory = xp.json("advisory=RC-XSA-0001").await;
    assert_eq!(state(&advisory, REPO, "testing"), "fixed");
    assert_eq!(state(&advisory, REPO, "production"), "affected");

    let cve = xp.json("cve=CVE-2026-51001").await;
    assert_eq!(cve["advisories"], json!(["RC-XSA-0001", "RC-XSA-0002"]));
    assert_eq!(state(&cve, REPO, "testing"), "fixed");
    assert_eq!(state(&cve, REPO, "production"), "affected");
    assert_eq!(state(&cve, "rc-xp-other", "production"), "absent");
    assert!(
        cve["index"]["advisories"].as_u64().unwrap() >= 7,
        "{}",
        cve["index"]
    );
    let only_lib = xp.json("cve=CVE-2026-51002").await;
    assert_eq!(only_lib["advisories"], json!(["RC-XSA-0002"]));

    let csv = xp.console.get("/exposure.csv?cve=CVE-2026-51001").await;
    assert_eq!(csv.status, 200, "{}", csv.body);
    let lines: Vec<&str> = csv.body.split("\r\n").collect();
    assert_eq!(lines[0], "repository,environment,version,state,packages");
    assert!(
        lines.contains(&"rc-xp-app,production,1,affected,xp-lib-2.0-1.noarch xp-ssl-1.0-1.noarch"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"rc-xp-app,testing,3,fixed,xp-lib-2.1-1.noarch xp-ssl-1.1-1.noarch"),
        "{lines:?}"
    );

    // Warm: the versions were read; only what each environment serves is read again.
    counting.take();
    xp.json("cve=CVE-2026-51001").await;
    let calls = counting.take();
    assert!(!calls.contains(&"package_builds"), "{calls:?}");
    assert!(!calls.contains(&"advisories_held"), "{calls:?}");

    // A promotion through the console: production v1 -> v3.
    let page = xp.console.get("/exposure?cve=CVE-2026-51001").await;
    assert!(page.body.contains("data-fixed-in=\"3\""), "{}", page.body);
    let form = format!("version=3&env=production&confirm={REPO}&live=1");
    let deployed = xp
        .console
        .post(&format!("/repos/{}/deploy", xp.id), &form)
        .await;
    assert!(
        deployed.status < 300,
        "{}: {}",
        deployed.status,
        deployed.body
    );
    let after = xp.json("cve=CVE-2026-51001").await;
    assert_eq!(state(&after, REPO, "production"), "fixed");
    assert_eq!(cell(&after, REPO, "production")["version"], 3);
    xp.point(1, 1);
}
