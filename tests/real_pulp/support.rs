//! Finding the test Pulp, building clients for it, and a raw API helper (curl) that
//! reads Pulp behind the client's back.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use repo_console::adapters::pulp::{PulpClient, PulpSettings, Secret};
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::repository::RepoId;
use repo_console::ports::{PageRequest, RepositoryManager};
use repo_console::wiring::default_pulp_settings;
use serde_json::Value;

use crate::needs::missing;

#[derive(Debug, Clone)]
pub struct TestPulp {
    pub base_url: String,
    pub username: String,
    pub password: String,
}

/// The configured Pulp; fails the test when there is none (its `#[ignore = "needs a real
/// Pulp"]` keeps it from running unasked).
pub fn required_pulp() -> TestPulp {
    from_env().or_else(from_env_file).unwrap_or_else(|| {
        missing(
            "a real Pulp",
            "none configured: set RC_TEST_PULP_URL (and _USERNAME, _PASSWORD) or run \
             scripts/pulp/up.sh to write target/pulp/env",
        )
    })
}

fn from_env() -> Option<TestPulp> {
    let base_url = std::env::var("RC_TEST_PULP_URL")
        .ok()
        .filter(|u| !u.is_empty())?;
    Some(TestPulp {
        base_url,
        username: std::env::var("RC_TEST_PULP_USERNAME").unwrap_or_else(|_| "admin".into()),
        password: std::env::var("RC_TEST_PULP_PASSWORD").unwrap_or_default(),
    })
}

/// The home of the test Pulp (`RC_TEST_PULP_HOME`, set by scripts/test.sh, or `PULP_HOME` of
/// `target/pulp/env`): its `etc/` holds the signing services' scripts and the public key of
/// pulp_deb's `rc-apt-signer` (scripts/pulp/signing_service.sh). Fails the test when unknown.
pub fn required_pulp_home() -> PathBuf {
    std::env::var("RC_TEST_PULP_HOME")
        .ok()
        .filter(|h| !h.is_empty())
        .or_else(|| env_file_value("PULP_HOME"))
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            missing(
                "the test Pulp's home",
                "unknown: set RC_TEST_PULP_HOME (scripts/test.sh does) or run scripts/pulp/up.sh \
                 to write PULP_HOME into target/pulp/env",
            )
        })
}

/// `export NAME=value` lines written by scripts/pulp/start.sh.
fn from_env_file() -> Option<TestPulp> {
    Some(TestPulp {
        base_url: env_file_value("PULP_BASE_URL")?,
        username: env_file_value("PULP_USERNAME")?,
        password: env_file_value("PULP_PASSWORD")?,
    })
}

/// One value of the env file written by scripts/pulp/start.sh (`export NAME=value` lines).
pub fn env_file_value(key: &str) -> Option<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/target/pulp/env");
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let rest = line
            .trim()
            .trim_start_matches("export ")
            .strip_prefix(key)?
            .strip_prefix('=')?;
        Some(rest.trim_matches(|c| c == '"' || c == '\'').to_owned())
    })
}

impl TestPulp {
    pub fn settings(&self) -> PulpSettings {
        PulpSettings {
            username: self.username.clone(),
            password: Secret::new(self.password.clone()),
            task_timeout: Duration::from_secs(120),
            ..default_pulp_settings(&self.base_url).expect("the test Pulp's URL is valid")
        }
    }

    pub fn client(&self) -> PulpClient {
        PulpClient::new(self.settings()).expect("the test settings are valid")
    }

    /// A raw call to Pulp's API with curl (basic auth, password passed on stdin, not argv).
    /// `path` is an href or a path relative to `/pulp/api/v3/`. Answers (status, JSON).
    pub fn raw(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let url = if path.starts_with('/') {
            format!("{}{path}", self.base_url)
        } else {
            format!("{}/pulp/api/v3/{path}", self.base_url)
        };
        let mut args = vec![
            "-X",
            method,
            "-w",
            "\n%{http_code}",
            "-H",
            "Accept: application/json",
        ];
        let body_text = body.map(Value::to_string);
        if let Some(text) = &body_text {
            args.extend([
                "-H",
                "Content-Type: application/json",
                "--data-binary",
                text,
            ]);
        }
        args.push(&url);
        let out = self.curl(&args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let (json, status) = text.rsplit_once('\n').unwrap_or(("", &text));
        let status: u16 = status
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{method} {url}: no status in {text:?}"));
        (status, serde_json::from_str(json).unwrap_or(Value::Null))
    }

    /// curl with this Pulp's user: `-sS -K -` and `args`, the password in a config read from
    /// stdin, never on the command line. Answers curl's output once it ends.
    pub fn curl(&self, args: &[&str]) -> Output {
        let mut child = Command::new("curl")
            .args(["-sS", "-K", "-"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("curl runs");
        let config = format!("user = \"{}:{}\"\n", self.username, self.password);
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(config.as_bytes())
            .expect("write curl config");
        child.wait_with_output().expect("curl finishes")
    }

    /// `raw` that must succeed; waits for the task when Pulp answers one.
    pub fn raw_ok(&self, method: &str, path: &str, body: Option<&Value>) -> Value {
        let (status, json) = self.raw(method, path, body);
        assert!(
            (200..300).contains(&status),
            "{method} {path} -> {status}: {json}"
        );
        match json.get("task").and_then(Value::as_str) {
            Some(task) if status == 202 => self.wait_task(task),
            _ => json,
        }
    }

    /// Waits for Pulp's task `task` (an href) to end, and answers it once completed; a task
    /// that failed, was canceled or runs past two minutes fails the test.
    pub fn wait_task(&self, task: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let json = self.raw_ok("GET", task, None);
            match json["state"].as_str() {
                Some("completed") => return json,
                Some("failed" | "canceled") => panic!("task {task} ended badly: {json}"),
                _ if Instant::now() > deadline => panic!("task {task} did not end: {json}"),
                _ => std::thread::sleep(Duration::from_millis(200)),
            }
        }
    }
}

/// The id of the repository named `name`, found through the port (paging by 3).
pub async fn repo_named(m: &dyn RepositoryManager, name: &str) -> RepoId {
    let mut offset = 0;
    loop {
        let page = m
            .list_repos(PageRequest { offset, limit: 3 })
            .await
            .expect("list_repos");
        if let Some(repo) = page.items.iter().find(|r| r.name.as_deref() == Some(name)) {
            return repo.id.clone();
        }
        offset += 3;
        assert!(
            offset < page.total,
            "no repository named {name}: is the Pulp seeded?"
        );
    }
}

/// Tests of this binary that change (or read, and would be upset by a change to) one seeded
/// object hold its lock, so that `cargo test`'s threads do not trip over each other.
/// (Other processes using the same Pulp are not covered.)
pub async fn exclusive(name: &str) -> tokio::sync::OwnedMutexGuard<()> {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};
    static LOCKS: OnceLock<Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    let lock = LOCKS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(name.to_owned())
        .or_default()
        .clone();
    lock.lock_owned().await
}

impl TestPulp {
    /// The href of a publication of version `n` of the repository at `repo` (an href; the
    /// seed makes the ones the tests use).
    pub fn publication_of(&self, repo: &str, n: u64) -> String {
        let found = self.raw_ok(
            "GET",
            &format!(
                "publications/rpm/rpm/?repository_version={repo}versions/{n}/&fields=pulp_href"
            ),
            None,
        );
        found["results"][0]["pulp_href"]
            .as_str()
            .unwrap_or_else(|| panic!("no publication of {repo} v{n}: run scripts/pulp/seed.sh"))
            .to_owned()
    }

    /// The href of the object named `name` in a list (`repositories/rpm/rpm/`…), if any.
    pub fn href_named(&self, list: &str, name: &str) -> Option<String> {
        let encoded = crate::web::enc(name);
        let found = self.raw_ok(
            "GET",
            &format!("{list}?name={encoded}&fields=pulp_href"),
            None,
        );
        found["results"][0]["pulp_href"].as_str().map(str::to_owned)
    }

    /// The id (uuid) of the repository named `name`, read with curl.
    pub fn repo_id(&self, name: &str) -> RepoId {
        let href = self
            .href_named("repositories/rpm/rpm/", name)
            .unwrap_or_else(|| panic!("no repository named {name}: is the Pulp seeded?"));
        let uuid = href.trim_end_matches('/').rsplit('/').next().expect("uuid");
        RepoId::parse(uuid).expect("a uuid")
    }

    /// The version number a publication serves, read with curl.
    pub fn publication_version(&self, publication: &str) -> (String, u64) {
        let version = self.raw_ok("GET", publication, None)["repository_version"]
            .as_str()
            .expect("a repository_version")
            .to_owned();
        let number = version
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a version number");
        (version, number)
    }

    /// The spec's deployed-version rule, with curl: the distributions in Pulp's order, the
    /// first whose publication is of a version of `id` gives the number.
    pub fn deployed_version(&self, id: &RepoId) -> Option<u64> {
        let dists = self.raw_ok(
            "GET",
            "distributions/rpm/rpm/?limit=10000&fields=name,publication",
            None,
        );
        let marker = format!("/repositories/rpm/rpm/{id}/versions/");
        dists["results"].as_array()?.iter().find_map(|d| {
            let publication = d["publication"].as_str()?;
            let (version, number) = self.publication_version(publication);
            version.contains(&marker).then_some(number)
        })
    }
}

/// What pulp_deb holds in a Pulp that has it: the tests that count requests add the reads of
/// its lists (issue 46: distributions and publications are read per plugin).
pub struct DebHeld {
    pub repositories: u64,
    pub distributions: u64,
    /// Distributions serving a publication (whose publications a page reads).
    pub publishing: u64,
}

impl TestPulp {
    /// What pulp_deb holds, or `None` when this Pulp has no pulp_deb.
    pub fn deb_held(&self) -> Option<DebHeld> {
        let (status, repositories) = self.raw(
            "GET",
            "repositories/deb/apt/?limit=1&fields=pulp_href",
            None,
        );
        if status == 404 {
            return None;
        }
        let distributions = self.raw_ok(
            "GET",
            "distributions/deb/apt/?limit=10000&fields=publication",
            None,
        );
        let listed = distributions["results"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        Some(DebHeld {
            repositories: repositories["count"].as_u64().unwrap_or(0),
            distributions: listed.len() as u64,
            publishing: listed
                .iter()
                .filter(|d| d["publication"].is_string())
                .count() as u64,
        })
    }
}

/// staging then production, named `<repo>-staging` and `<repo>-prod` (the checks', pins' and
/// evidence's tests).
pub fn staging_then_production() -> EnvironmentPath {
    let environment = |name: &str, pattern: &str| Environment {
        name: EnvironmentName::parse(name).expect("a name"),
        naming: DistributionNaming::new(Some(NamePattern::parse(pattern).expect("a pattern")), []),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![
        environment("staging", "{repo}-staging"),
        environment("production", "{repo}-prod"),
    ])
    .expect("a path")
}
