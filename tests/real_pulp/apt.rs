//! Issue 46: a Debian repository promoted by the console, with apt as the client. The test builds
//! `.deb` files of one package with `dpkg-deb` (versions that test Debian's order: `1:0.9-1` above
//! `2.0-1`, `2.0~rc1-1` below `2.0-1`, `2.0-1` below `2.0-1+b1`), uploads them to pulp_deb, and
//! makes a `deb/apt` repository `rcdeb-apt` of several versions (made anew at each run, with its
//! distributions `rcdeb-apt-testing` and `rcdeb-apt-staging`, both serving v1 at first). The
//! console, over the real Pulp with the path testing -> staging, deploys versions through its
//! confirm step and form; after each deploy `apt-get update` reads the distribution (its own
//! `Dir::State`, `Dir::Cache` and sources list, `[trusted=yes]`: the metadata is unsigned) and
//! `apt-cache policy` shows exactly the version the confirm step announced. The console's
//! order agrees with `dpkg --compare-versions`, and with the default policy (unsigned metadata
//! refused) the same deploy is refused and Pulp is unchanged. Needs the real Pulp with
//! pulp_deb (scripts/pulp/install.sh), dpkg-deb and apt.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use repo_console::domain::policy::metadata::MetadataPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::{DistributionHref, RepoId, UnsignedMetadata};
use scraper::Html;
use serde_json::{json, Value};

use super::console::{attr, over_upstream, package_changes, select, Console};
use super::contract::{debian_repository_contract, DebFixture};
use super::support::{exclusive, required_pulp, TestPulp};
use crate::host_tools::required;

const REPO: &str = "rcdeb-apt";
const PACKAGE: &str = "rcdeb-hello";
/// The versions built, in the order they are uploaded.
const BUILT: [&str; 4] = ["2.0~rc1-1", "2.0-1", "2.0-1+b1", "1:0.9-1"];
/// The repository's versions 1..=4, each the set of package versions it holds.
pub(super) const VERSIONS: [&[&str]; 4] = [
    &["2.0~rc1-1"],
    &["2.0-1"],
    &["2.0-1", "2.0-1+b1"],
    &["1:0.9-1"],
];

pub(super) fn environment_path() -> EnvironmentPath {
    let environment = |name: &str| Environment {
        name: EnvironmentName::parse(name).expect("a name"),
        naming: DistributionNaming::new(
            Some(NamePattern::parse(&format!("{{repo}}-{name}")).expect("a pattern")),
            [],
        ),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![environment("testing"), environment("staging")]).expect("a path")
}

pub(super) fn allowing_unsigned_metadata() -> Policy {
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_metadata(MetadataPolicy::new(
        UnsignedMetadata::Allow,
        BTreeMap::new(),
    ))
}

/// `<name>_<version>_all.deb` of one tiny package, built with `dpkg-deb` in `dir`.
fn build_deb(dpkg_deb: &Path, dir: &Path, version: &str) -> PathBuf {
    let root = dir.join(format!("root-{version}"));
    let doc = root.join(format!("usr/share/doc/{PACKAGE}"));
    std::fs::create_dir_all(root.join("DEBIAN")).expect("mkdir DEBIAN");
    std::fs::create_dir_all(&doc).expect("mkdir doc");
    std::fs::write(
        root.join("DEBIAN/control"),
        format!(
            "Package: {PACKAGE}\nVersion: {version}\nArchitecture: all\n\
             Maintainer: repo-console tests <tests@example.invalid>\n\
             Description: a package of the console's apt test\n"
        ),
    )
    .expect("write control");
    std::fs::write(doc.join("version"), version).expect("write a file");
    let deb = dir.join(format!("{PACKAGE}_{}_all.deb", version.replace(':', "%3a")));
    // A fixed time makes the same bytes at every run, so Pulp keeps one package per version.
    let out = Command::new(dpkg_deb)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .args(["--root-owner-group", "--build"])
        .arg(&root)
        .arg(&deb)
        .output()
        .expect("dpkg-deb runs");
    assert!(out.status.success(), "dpkg-deb: {out:?}");
    deb
}

impl TestPulp {
    /// Uploads a file to `content/deb/packages/` (multipart, with curl, the password on
    /// stdin) and answers the package's href once the task has made it.
    fn upload_deb(&self, file: &Path) -> String {
        let url = format!("{}/pulp/api/v3/content/deb/packages/", self.base_url);
        let file = format!("file=@{}", file.display());
        let out = self.curl(&["-F", &file, &url]);
        let answer: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| {
            panic!("upload answered {:?}", String::from_utf8_lossy(&out.stdout))
        });
        let task = answer["task"].as_str().unwrap_or_else(|| {
            panic!("the upload answers a task: {answer} (is pulp_deb installed?)")
        });
        // The same file again (the build is reproducible) names the package Pulp has.
        let done = self.wait_task(task);
        done["created_resources"]
            .as_array()
            .and_then(|c| {
                c.iter()
                    .filter_map(Value::as_str)
                    .find(|h| h.contains("/content/deb/packages/"))
            })
            .map(str::to_owned)
            .unwrap_or_else(|| panic!("the upload made no package: {done}"))
    }
}

/// The repository `repo_name` made anew: versions 1..=4 as [`VERSIONS`] says, v1 published
/// (simple and structured, unsigned) and served by the distributions `<repo_name>-<suffix>`.
/// With a `signer` (a signing service's href), the repository's `signing_service` is set once
/// v1 is published: v1's publication stays unsigned, every publication after it is signed.
/// Answers the repository's id.
pub(super) fn make_repository(
    pulp: &TestPulp,
    repo_name: &str,
    suffixes: &[&str],
    packages: &BTreeMap<&str, String>,
    signer: Option<&str>,
) -> RepoId {
    for suffix in suffixes {
        let name = format!("{repo_name}-{suffix}");
        if let Some(href) = pulp.href_named("distributions/deb/apt/", &name) {
            pulp.raw_ok("DELETE", &href, None);
        }
    }
    if let Some(href) = pulp.href_named("repositories/deb/apt/", repo_name) {
        pulp.raw_ok("DELETE", &href, None);
    }
    let repo = pulp.raw_ok(
        "POST",
        "repositories/deb/apt/",
        Some(&json!({ "name": repo_name })),
    );
    let href = repo["pulp_href"].as_str().expect("an href").to_owned();
    let mut held: BTreeSet<&str> = BTreeSet::new();
    for version in VERSIONS {
        let wanted: BTreeSet<&str> = version.iter().copied().collect();
        let add: Vec<&String> = wanted.difference(&held).map(|v| &packages[v]).collect();
        let remove: Vec<&String> = held.difference(&wanted).map(|v| &packages[v]).collect();
        pulp.raw_ok(
            "POST",
            &format!("{href}modify/"),
            Some(&json!({ "add_content_units": add, "remove_content_units": remove })),
        );
        held = wanted;
    }
    let task = pulp.raw_ok(
        "POST",
        "publications/deb/apt/",
        Some(&json!({ "repository_version": format!("{href}versions/1/"), "simple": true, "structured": true })),
    );
    let publication = task["created_resources"][0]
        .as_str()
        .expect("a publication");
    if let Some(signer) = signer {
        pulp.raw_ok("PATCH", &href, Some(&json!({ "signing_service": signer })));
    }
    for suffix in suffixes {
        let name = format!("{repo_name}-{suffix}");
        pulp.raw_ok(
            "POST",
            "distributions/deb/apt/",
            Some(&json!({ "name": name, "base_path": name, "publication": publication })),
        );
    }
    let uuid = href
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .expect("a uuid");
    RepoId::parse(uuid).expect("a uuid")
}

/// How apt's sources line trusts a distribution.
pub(super) enum Trust<'a> {
    /// `[trusted=yes]`: apt takes the metadata unsigned.
    Unchecked,
    /// `[signed-by=<key>]`: apt takes the metadata only with a `Release` signature this public
    /// key (an armored `.asc` file) checks.
    SignedBy(&'a Path),
}

/// apt as the client: its two programs, found on the host.
pub(super) struct Apt {
    get: PathBuf,
    cache: PathBuf,
}

impl Apt {
    /// apt-get and apt-cache, or the test fails naming the package to install.
    pub(super) fn required() -> Self {
        Self {
            get: required("apt-get", "apt"),
            cache: required("apt-cache", "apt"),
        }
    }

    /// What apt sees at a distribution, which must succeed: see [`Apt::reads`].
    pub(super) fn sees(&self, base_url: &str, trust: &Trust) -> (String, Vec<String>) {
        self.reads(base_url, trust)
            .unwrap_or_else(|said| panic!("{said}"))
    }

    /// What apt reads at a distribution: `apt-get update` with directories of its own and a
    /// sources line trusting it as `trust` says, then `apt-cache policy <package>`: (the
    /// candidate, every version in the version table), or what apt said when `apt-get update`
    /// failed or doubted the signature.
    pub(super) fn reads(
        &self,
        base_url: &str,
        trust: &Trust,
    ) -> Result<(String, Vec<String>), String> {
        apt_reads(&self.get, &self.cache, base_url, trust)
    }
}

/// The `base_url` Pulp gives the `deb/apt` distribution named `name`.
pub(super) fn distribution_base_url(pulp: &TestPulp, name: &str) -> String {
    let href = pulp
        .href_named("distributions/deb/apt/", name)
        .unwrap_or_else(|| panic!("no distribution {name}"));
    pulp.raw_ok("GET", &href, None)["base_url"]
        .as_str()
        .expect("a base_url")
        .to_owned()
}

fn apt_reads(
    apt_get: &Path,
    apt_cache: &Path,
    base_url: &str,
    trust: &Trust,
) -> Result<(String, Vec<String>), String> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let d = dir.path();
    for sub in [
        "state/lists/partial",
        "cache/archives/partial",
        "etc/apt.conf.d",
        "etc/preferences.d",
        "etc/sources.list.d",
    ] {
        std::fs::create_dir_all(d.join(sub)).expect("mkdir");
    }
    std::fs::write(d.join("status"), "").expect("an empty dpkg status");
    let sources = d.join("sources.list");
    // A simple publication: one distribution `default`, component `all`.
    let option = match trust {
        Trust::Unchecked => "trusted=yes".to_owned(),
        Trust::SignedBy(key) => format!("signed-by={}", key.display()),
    };
    std::fs::write(&sources, format!("deb [{option}] {base_url} default all\n")).expect("sources");
    let options: Vec<String> = [
        format!("Dir::State={}", d.join("state").display()),
        format!("Dir::State::status={}", d.join("status").display()),
        format!("Dir::Cache={}", d.join("cache").display()),
        format!("Dir::Etc::SourceList={}", sources.display()),
        format!(
            "Dir::Etc::SourceParts={}",
            d.join("etc/sources.list.d").display()
        ),
        format!("Dir::Etc::Parts={}", d.join("etc/apt.conf.d").display()),
        format!(
            "Dir::Etc::Preferences={}",
            d.join("etc/preferences").display()
        ),
        format!(
            "Dir::Etc::PreferencesParts={}",
            d.join("etc/preferences.d").display()
        ),
        "APT::Architecture=amd64".to_owned(),
        "Debug::NoLocking=1".to_owned(),
    ]
    .into_iter()
    .flat_map(|o| ["-o".to_owned(), o])
    .collect();
    let update = Command::new(apt_get)
        .args(&options)
        .arg("update")
        .output()
        .expect("apt-get runs");
    let said = String::from_utf8_lossy(&update.stdout).into_owned()
        + &String::from_utf8_lossy(&update.stderr);
    // apt warns (and still exits 0 for some) when a signature is missing or its key unknown.
    let signature_doubted = ["NO_PUBKEY", "not signed", "EXPKEYSIG", "BADSIG"]
        .iter()
        .any(|w| said.contains(w));
    if !update.status.success() || signature_doubted {
        return Err(format!(
            "apt-get update ({}) refused or doubted {base_url}:\n{said}",
            update.status
        ));
    }
    let policy = Command::new(apt_cache)
        .args(&options)
        .args(["policy", PACKAGE])
        .output()
        .expect("apt-cache runs");
    let shown = String::from_utf8_lossy(&policy.stdout).into_owned();
    assert!(policy.status.success(), "apt-cache policy: {shown}");
    let candidate = shown
        .lines()
        .find_map(|l| l.trim().strip_prefix("Candidate:"))
        .map(|c| c.trim().to_owned())
        .unwrap_or_else(|| panic!("no candidate in:\n{shown}\n{said}"));
    // The version table: lines "     <version> <priority>" (a leading "***" marks the installed one).
    let table = shown
        .lines()
        .skip_while(|l| !l.contains("Version table:"))
        .skip(1)
        .filter_map(|l| {
            let mut words = l.split_whitespace().filter(|w| *w != "***");
            let (version, priority) = (words.next()?, words.next()?);
            (priority.parse::<u32>().is_ok() && words.next().is_none()).then(|| version.to_owned())
        })
        .collect();
    Ok((candidate, table))
}

/// `dpkg --compare-versions a op b`.
pub(super) fn dpkg_says(a: &str, op: &str, b: &str) -> bool {
    Command::new("dpkg")
        .args(["--compare-versions", a, op, b])
        .status()
        .expect("dpkg runs")
        .success()
}

/// The confirm step of deploying `version` to `env`: its page, the one change of the package
/// (kind, old side, new side) and the `live` field its form sends back.
pub(super) async fn confirm(
    console: &Console,
    id: &RepoId,
    env: &str,
    version: u64,
) -> (Html, (String, String, String), String) {
    let reply = console
        .get(&format!(
            "/repos/{id}/deploy/confirm?version={version}&env={env}"
        ))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let html = reply.html();
    let changes = package_changes(&html);
    assert_eq!(changes.len(), 1, "one package changes: {changes:?}");
    let (kind, name, text) = changes[0].clone();
    assert_eq!(name, PACKAGE);
    let evr = select(&html, "[data-change] .evr");
    let sides = super::console::text(&evr[0]);
    let (old, new) = sides
        .split_once(" \u{2192} ")
        .unwrap_or_else(|| panic!("old -> new in {text}"));
    let live = select(&html, "form input[name=live]");
    let live = live
        .first()
        .map(|e| attr(e, "value").to_owned())
        .unwrap_or_default();
    (html, (kind, old.to_owned(), new.to_owned()), live)
}

/// The newest version a side of a change names ("2.0-1, 2.0-1+b1 (kept)"), by dpkg.
pub(super) fn newest_named(side: &str) -> String {
    let named: Vec<&str> = side
        .split(", ")
        .map(|v| v.trim_end_matches(" (kept)").trim())
        .collect();
    let mut newest = named[0];
    for v in &named[1..] {
        if dpkg_says(v, "gt", newest) {
            newest = v;
        }
    }
    newest.to_owned()
}

/// One deploy of a promotion, `(environment, version, the change kind expected)`: the confirm
/// step of deploying `version` of `repo` (its id `id`) announces one change of the package, of
/// that kind, in dpkg's order and saying Debian repositories carry no advisories; the deploy
/// is sent with the confirm step's form; then apt, trusting the distribution `<repo>-<env>`
/// as `trust` says, takes exactly the version announced as its candidate and sees the
/// packages of that version.
pub(super) async fn deploy_as_announced(
    console: &Console,
    pulp: &TestPulp,
    apt: &Apt,
    id: &RepoId,
    repo: &str,
    (env, version, expected): (&str, u64, &str),
    trust: &Trust<'_>,
) {
    let (html, (kind, old, new), live) = confirm(console, id, env, version).await;
    assert_eq!(kind, expected, "{env} v{version}: {old} -> {new}");
    assert_eq!(
        select(&html, "[data-no-advisories=deb]").len(),
        1,
        "the confirm step says Debian repositories carry no advisories"
    );
    let (was, announced) = (newest_named(&old), newest_named(&new));
    let dpkg_op = if kind == "upgraded" { "gt" } else { "lt" };
    assert!(
        dpkg_says(&announced, dpkg_op, &was),
        "dpkg: {announced} {dpkg_op} {was}"
    );
    let done = console
        .post(
            &format!("/repos/{id}/deploy"),
            &format!("version={version}&env={env}&confirm={repo}&live={live}"),
        )
        .await;
    assert!(
        done.status < 400,
        "deploy {env} v{version}: {} {}",
        done.status,
        done.body
    );
    let base_url = distribution_base_url(pulp, &format!("{repo}-{env}"));
    let (candidate, table) = apt.sees(&base_url, trust);
    assert_eq!(
        candidate, announced,
        "{env} v{version}: apt's candidate is what the confirm step announced"
    );
    let held: BTreeSet<String> = VERSIONS[version as usize - 1]
        .iter()
        .map(|v| (*v).to_owned())
        .collect();
    assert_eq!(
        table.into_iter().collect::<BTreeSet<_>>(),
        held,
        "{env} v{version}: apt sees the version's packages"
    );
}

/// Every version of [`BUILT`], built and uploaded: the package's href by version. One test
/// uploads at a time: Pulp's tasks making the same package at once may collide.
pub(super) fn uploaded(pulp: &TestPulp, dpkg_deb: &Path) -> BTreeMap<&'static str, String> {
    static UPLOADING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = UPLOADING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let dir = tempfile::tempdir().expect("a temporary directory");
    BUILT
        .iter()
        .map(|v| (*v, pulp.upload_deb(&build_deb(dpkg_deb, dir.path(), v))))
        .collect()
}

#[tokio::test]
#[ignore = "needs a real Pulp with pulp_deb and dpkg-deb"]
async fn pulp_client_keeps_the_debian_repository_contract() {
    let dpkg_deb = required("dpkg-deb", "dpkg");
    let pulp = required_pulp();
    let _held = exclusive("rcdeb-contract").await;
    let packages = uploaded(&pulp, &dpkg_deb);
    make_repository(&pulp, "rcdeb-contract", &["scratch"], &packages, None);
    let scratch = pulp
        .href_named("distributions/deb/apt/", "rcdeb-contract-scratch")
        .expect("the scratch distribution");
    let fixture = DebFixture {
        name: "rcdeb-contract".to_owned(),
        scratch_distribution: DistributionHref::new(scratch),
    };
    debian_repository_contract(&pulp.client(), &fixture).await;
}

#[tokio::test]
#[ignore = "needs a real Pulp with pulp_deb, dpkg-deb and apt"]
async fn deploys_of_a_debian_repository_are_what_apt_then_sees() {
    let dpkg_deb = required("dpkg-deb", "dpkg");
    let apt = Apt::required();
    let pulp = required_pulp();
    let _held = exclusive(REPO).await;
    let packages = uploaded(&pulp, &dpkg_deb);
    let id = make_repository(&pulp, REPO, &["testing", "staging"], &packages, None);
    let base_url = |env: &str| distribution_base_url(&pulp, &format!("{REPO}-{env}"));
    assert_eq!(
        apt.sees(&base_url("testing"), &Trust::Unchecked).0,
        "2.0~rc1-1"
    );

    // The default policy refuses unsigned metadata: the confirm step and the form say so, and
    // Pulp is not touched.
    let strict = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .spawn()
        .await;
    let refused = strict
        .post(
            &format!("/repos/{id}/deploy"),
            &format!("version=2&env=testing&confirm={REPO}&live=1"),
        )
        .await;
    assert!(
        (400..500).contains(&refused.status) && refused.body.contains("unsigned_metadata"),
        "{}: {}",
        refused.status,
        refused.body
    );
    assert_eq!(
        apt.sees(&base_url("testing"), &Trust::Unchecked).0,
        "2.0~rc1-1"
    );

    let console = over_upstream(Arc::new(pulp.client()), 500)
        .environments(environment_path())
        .policy(allowing_unsigned_metadata())
        .spawn()
        .await;
    let dashboard = console.get("/").await.html();
    let row_type = select(
        &dashboard,
        &format!("a[href='/repos/{id}/versions'] ~ [data-content-type]"),
    );
    assert_eq!(
        row_type.len(),
        1,
        "the dashboard lists {REPO} with its type"
    );
    assert_eq!(attr(&row_type[0], "data-content-type"), "deb");

    // (environment, version, the change kind the confirm step must announce)
    let steps = [
        ("testing", 2, "upgraded"),   // 2.0~rc1-1 -> 2.0-1: "~" sorts first
        ("testing", 3, "upgraded"),   // 2.0-1 -> 2.0-1+b1
        ("staging", 3, "upgraded"),   // the promotion of v3
        ("testing", 4, "upgraded"),   // 2.0-1+b1 -> 1:0.9-1: the epoch wins
        ("staging", 1, "downgraded"), // 2.0-1+b1 -> 2.0~rc1-1
    ];
    for step in steps {
        deploy_as_announced(&console, &pulp, &apt, &id, REPO, step, &Trust::Unchecked).await;
    }
}
