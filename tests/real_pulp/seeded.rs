//! A seeded repository a test deploys to: scripts/pulp/seed.sh's `seed_production` (v1..v3,
//! a publication of each, `<name>-prod` serving v1 between tests). What Pulp says production
//! serves, how many publications the repository has and how many updates Pulp ran on the
//! distribution, read with curl behind the console's back; production put back at v1 first
//! (an earlier run may have left anything) and last (also when a test fails half-way).
//! Pulp is read with few calls: each of the raw helper's calls authenticates anew (basic
//! auth), which costs Pulp most of a second.

use serde_json::json;

use repo_console::domain::repository::RepoId;

use super::support::TestPulp;
use super::web::enc;

/// What Pulp says about production and the repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PulpState {
    /// The publication production serves, and the version of the repository it is of.
    pub publication: String,
    pub version: u64,
    /// When Pulp last updated the distribution.
    pub dist_updated: String,
    /// How many publications of the repository Pulp holds.
    pub publications: u64,
    /// How many updates of the distribution Pulp ran (its tasks, ever).
    pub updates: u64,
}

pub struct SeededProduction {
    pub pulp: TestPulp,
    pub name: &'static str,
    pub id: RepoId,
    /// The repository's href.
    pub repo: String,
    /// The production distribution's href and PRN.
    pub dist: String,
    prn: String,
    /// The seeded publications of v1, v2, v3.
    pub seeded: Vec<String>,
}

impl SeededProduction {
    /// `name` in Pulp, its production (`<name>-prod`) serving v1.
    pub fn at_v1(pulp: TestPulp, name: &'static str) -> Self {
        let repo = pulp
            .href_named("repositories/rpm/rpm/", name)
            .unwrap_or_else(|| panic!("no repository {name}: run scripts/pulp/seed.sh"));
        let uuid = repo.trim_end_matches('/').rsplit('/').next().expect("uuid");
        let id = RepoId::parse(uuid).expect("a uuid");
        let dist_name = format!("{name}-prod");
        let found = pulp.raw_ok(
            "GET",
            &format!(
                "distributions/rpm/rpm/?name={}&fields=pulp_href,prn,publication",
                enc(&dist_name)
            ),
            None,
        );
        let dist = &found["results"][0];
        let href = dist["pulp_href"]
            .as_str()
            .unwrap_or_else(|| panic!("no distribution {dist_name}: run scripts/pulp/seed.sh"))
            .to_owned();
        let prn = dist["prn"].as_str().expect("a prn").to_owned();
        let serving = dist["publication"].as_str().map(str::to_owned);
        let seeded = seeded_publications(&pulp, &repo);
        let seeded_production = Self {
            pulp,
            name,
            id,
            repo,
            dist: href,
            prn,
            seeded,
        };
        if serving.as_deref() != Some(seeded_production.seeded[0].as_str()) {
            seeded_production.point(1);
        }
        seeded_production
    }

    /// Points production at the seeded publication of version `n` with Pulp's API, as an
    /// operator would behind the console's back (waits for the task).
    pub fn point(&self, n: usize) {
        let publication = &self.seeded[n - 1];
        self.pulp.raw_ok(
            "PATCH",
            &self.dist,
            Some(&json!({ "publication": publication })),
        );
    }

    /// What Pulp says now.
    pub fn state(&self) -> PulpState {
        let dist = self.pulp.raw_ok("GET", &self.dist, None);
        let publication = dist["publication"]
            .as_str()
            .unwrap_or_else(|| panic!("{}-prod serves a publication: {dist}", self.name))
            .to_owned();
        // The newest publications of the repository: one a deploy made is among them.
        let newest = self.pulp.raw_ok(
            "GET",
            &format!(
                "publications/rpm/rpm/?repository={}&ordering=-pulp_created&limit=10\
                 &fields=pulp_href,repository_version",
                enc(&self.repo)
            ),
            None,
        );
        let version = self
            .seeded
            .iter()
            .position(|p| *p == publication)
            .map(|i| i as u64 + 1)
            .or_else(|| {
                let found = newest["results"]
                    .as_array()?
                    .iter()
                    .find(|p| p["pulp_href"] == publication.as_str())?;
                Some(version_number(found["repository_version"].as_str()?))
            })
            .unwrap_or_else(|| {
                panic!(
                    "{}-prod serves {publication}, not a publication of {}",
                    self.name, self.name
                )
            });
        let updates = self.pulp.raw_ok(
            "GET",
            &format!(
                "tasks/?reserved_resources={}&name=pulpcore.app.tasks.base.ageneral_update\
                 &limit=1&fields=pulp_href",
                enc(&self.prn)
            ),
            None,
        );
        PulpState {
            publication,
            version,
            dist_updated: dist["pulp_last_updated"]
                .as_str()
                .expect("pulp_last_updated")
                .to_owned(),
            publications: newest["count"].as_u64().expect("a count"),
            updates: updates["count"].as_u64().expect("a count"),
        }
    }
}

/// Production back at v1 at the end, also when a test fails half-way (the PATCH is sent,
/// its task not awaited: the next run reads production first and waits if it must).
impl Drop for SeededProduction {
    fn drop(&mut self) {
        let body = json!({ "publication": self.seeded[0] });
        let (status, answer) = self.pulp.raw("PATCH", &self.dist, Some(&body));
        if !std::thread::panicking() {
            assert_eq!(status, 202, "production put back at v1: {answer}");
        }
    }
}

/// The publications of v1, v2 and v3 that scripts/pulp/seed.sh made: the repository's three
/// oldest (the tests' deploys only add newer ones).
pub fn seeded_publications(pulp: &TestPulp, repo: &str) -> Vec<String> {
    let oldest = pulp.raw_ok(
        "GET",
        &format!(
            "publications/rpm/rpm/?repository={}&ordering=pulp_created&limit=3\
             &fields=pulp_href,repository_version",
            enc(repo)
        ),
        None,
    );
    let mut by_version: Vec<(u64, String)> = oldest["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|p| {
            let version = p["repository_version"].as_str().expect("a version");
            let href = p["pulp_href"].as_str().expect("an href");
            (version_number(version), href.to_owned())
        })
        .collect();
    by_version.sort();
    let versions: Vec<u64> = by_version.iter().map(|(v, _)| *v).collect();
    assert_eq!(versions, [1, 2, 3], "{oldest}: run scripts/pulp/seed.sh");
    by_version.into_iter().map(|(_, href)| href).collect()
}

/// The number of a repository version's href (`.../versions/<n>/`).
pub fn version_number(href: &str) -> u64 {
    href.trim_end_matches('/')
        .rsplit('/')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no version number in {href}"))
}
