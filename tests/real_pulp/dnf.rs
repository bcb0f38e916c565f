//! Issue 45: the verification badge against dnf's real answer. Four repositories (`rc-hg-dnf-*`,
//! made by the test through Pulp's API when missing and set as each cell says): `repo_gpgcheck`
//! on or off, a metadata signing service (`rc-metadata-signer`) or none, each with `gpgcheck`
//! on, `sha256` and one small package of the seed (hello 1.0), published and distributed.
//! Debian's dnf reads each distribution as a client configured as the repository says would,
//! and the console's page of each is read with the default policy and with
//! `unsigned_metadata = "allow"`: dnf accepts exactly the repositories the console does not warn
//! about, refuses unsigned metadata with `repo_gpgcheck=1`, and the badge follows the rule.
//! Needs the real Pulp and dnf (`scripts/test.sh` installs it); without dnf the test fails.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use repo_console::domain::policy::metadata::MetadataPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::UnsignedMetadata;
use serde_json::{json, Value};

use super::console::{attr, over_upstream, select};
use super::support::{exclusive, required_pulp, TestPulp};
use crate::host_tools::required;

/// One cell of the table: how its repository is configured.
#[derive(Debug, Clone, Copy)]
struct Cell {
    name: &'static str,
    repo_gpgcheck: bool,
    signed: bool,
}

const CELLS: [Cell; 4] = [
    Cell {
        name: "rc-hg-dnf-checked-signed",
        repo_gpgcheck: true,
        signed: true,
    },
    Cell {
        name: "rc-hg-dnf-checked-unsigned",
        repo_gpgcheck: true,
        signed: false,
    },
    Cell {
        name: "rc-hg-dnf-unchecked-signed",
        repo_gpgcheck: false,
        signed: true,
    },
    Cell {
        name: "rc-hg-dnf-unchecked-unsigned",
        repo_gpgcheck: false,
        signed: false,
    },
];

impl TestPulp {
    /// The href of the repository named `name`, made with `settings` when missing, and set to
    /// them when it exists (a test before may have changed it); it has at least one version
    /// (hello 1.0 of the seed added to an empty one). Answers the href.
    pub fn repository_with_one_version(&self, name: &str, settings: &Value) -> String {
        let href = match self.href_named("repositories/rpm/rpm/", name) {
            Some(href) => {
                self.raw_ok("PATCH", &href, Some(settings));
                href
            }
            None => {
                let mut body = settings.clone();
                body["name"] = json!(name);
                self.raw_ok("POST", "repositories/rpm/rpm/", Some(&body))["pulp_href"]
                    .as_str()
                    .expect("a created repository has an href")
                    .to_owned()
            }
        };
        let latest = self.raw_ok("GET", &href, None)["latest_version_href"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if latest.ends_with("/versions/0/") {
            let hello = self.raw_ok(
                "GET",
                "content/rpm/packages/?name=hello&version=1.0&release=1&fields=pulp_href",
                None,
            )["results"][0]["pulp_href"]
                .as_str()
                .expect("hello 1.0 is in Pulp: run scripts/pulp/seed.sh")
                .to_owned();
            self.raw_ok(
                "POST",
                &format!("{href}modify/"),
                Some(&json!({ "add_content_units": [hello] })),
            );
        }
        href
    }

    /// The href of the signing service `rc-metadata-signer` that scripts/pulp/start.sh adds.
    pub fn metadata_signer(&self) -> String {
        self.href_named("signing-services/", "rc-metadata-signer")
            .expect(
                "Pulp has the signing service rc-metadata-signer (scripts/pulp/start.sh adds it)",
            )
    }

    /// A new publication of the latest version of `repository`, served by the distribution
    /// `name` (base path `name`, made when missing). Answers the distribution's content URL.
    fn publish_and_distribute(&self, repository: &str, name: &str) -> String {
        let task = self.raw_ok(
            "POST",
            "publications/rpm/rpm/",
            Some(&json!({ "repository": repository })),
        );
        let publication = task["created_resources"][0]
            .as_str()
            .expect("the publish task made a publication")
            .to_owned();
        match self.href_named("distributions/rpm/rpm/", name) {
            Some(href) => {
                self.raw_ok("PATCH", &href, Some(&json!({ "publication": publication })));
            }
            None => {
                self.raw_ok(
                    "POST",
                    "distributions/rpm/rpm/",
                    Some(&json!({ "name": name, "base_path": name, "publication": publication })),
                );
            }
        }
        let href = self
            .href_named("distributions/rpm/rpm/", name)
            .expect("the distribution exists");
        self.raw_ok("GET", &href, None)["base_url"]
            .as_str()
            .expect("a distribution has a base_url")
            .to_owned()
    }
}

/// What dnf answered for one repository: whether it read the metadata, and what it said.
struct DnfAnswer {
    accepted: bool,
    output: String,
}

/// Debian's dnf, in temporary directories of its own (install root, `reposdir`, `cachedir`),
/// asked for the package of a repository configured as `cell` says at `base_url`: `repo_gpgcheck`
/// as the repository has it, the published `repodata/repomd.xml.key` as `gpgkey` when signed.
/// `gpgcheck=0`: the seed's packages are unsigned and a query installs nothing, so only the
/// metadata's signature is checked here (package signatures are the `gpgcheck` condition, read
/// from the repository's settings). `skip_if_unavailable=False`, so a refused repository is an
/// error and not a warning.
fn ask_dnf(dnf: &PathBuf, cell: Cell, base_url: &str) -> DnfAnswer {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (root, repos, cache) = (
        dir.path().join("root"),
        dir.path().join("repos.d"),
        dir.path().join("cache"),
    );
    for d in [&root, &repos, &cache] {
        std::fs::create_dir_all(d).expect("mkdir");
    }
    let mut repo_file = format!(
        "[{name}]\nname={name}\nbaseurl={base_url}\ngpgcheck=0\nrepo_gpgcheck={}\n",
        u8::from(cell.repo_gpgcheck),
        name = cell.name,
    );
    if cell.signed {
        repo_file.push_str(&format!("gpgkey={base_url}repodata/repomd.xml.key\n"));
    }
    std::fs::write(repos.join(format!("{}.repo", cell.name)), &repo_file).expect("write .repo");
    let out = Command::new(dnf)
        .arg("-y")
        .arg(format!("--installroot={}", root.display()))
        .arg(format!("--setopt=reposdir={}", repos.display()))
        .arg(format!("--setopt=cachedir={}", cache.display()))
        .args([
            "--setopt=skip_if_unavailable=False",
            "--releasever=9",
            "--disablerepo=*",
        ])
        .arg(format!("--enablerepo={}", cell.name))
        .args(["repoquery", "--queryformat", "%{name}-%{version}", "hello"])
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", dnf.display()));
    let output = format!(
        "{repo_file}---\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    DnfAnswer {
        accepted: out.status.success() && output.contains("hello-1.0"),
        output,
    }
}

/// What the console's versions page says of a repository: its badge and whether it warns
/// that clients refuse its metadata.
async fn console_says(policy: Option<Policy>, id: &str, production: &str) -> (String, bool) {
    let pulp = required_pulp();
    let mut builder = over_upstream(Arc::new(pulp.client()), 25).production(HashMap::from([(
        production.to_owned(),
        production.to_owned(),
    )]));
    if let Some(policy) = policy {
        builder = builder.policy(policy);
    }
    let console = builder.spawn().await;
    let page = console.get(&format!("/repos/{id}/versions")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let badge = select(&html, "#verification [data-badge]");
    assert_eq!(badge.len(), 1, "one badge in the verification detail");
    let warned = !select(&html, "[data-warning=unsigned-metadata]").is_empty();
    (attr(&badge[0], "data-badge").to_owned(), warned)
}

fn allowing_unsigned_metadata() -> Policy {
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_metadata(MetadataPolicy::new(
        UnsignedMetadata::Allow,
        BTreeMap::new(),
    ))
}

#[tokio::test]
#[ignore = "needs a real Pulp and dnf"]
async fn the_badge_and_the_warning_agree_with_what_dnf_does() {
    let dnf = required("dnf", "dnf");
    let pulp = required_pulp();
    let _held = exclusive("rc-hg-dnf").await;
    let signer = pulp.metadata_signer();
    let mut rows = Vec::new();
    for cell in CELLS {
        let settings = json!({
            "repo_config": { "gpgcheck": 1, "repo_gpgcheck": u8::from(cell.repo_gpgcheck) },
            "checksum_type": "sha256",
            "metadata_signing_service": if cell.signed { json!(signer) } else { Value::Null },
        });
        let repository = pulp.repository_with_one_version(cell.name, &settings);
        let base_url = pulp.publish_and_distribute(&repository, cell.name);
        let dnf_answer = ask_dnf(&dnf, cell, &base_url);
        let id = pulp.repo_id(cell.name).to_string();
        let (refusing, warned) = console_says(None, &id, cell.name).await;
        let (allowing, warned_allowing) =
            console_says(Some(allowing_unsigned_metadata()), &id, cell.name).await;
        assert_eq!(
            warned, warned_allowing,
            "{}: the warning is about clients, not the policy",
            cell.name
        );
        // dnf accepts exactly the repositories the console does not warn about.
        assert_eq!(
            dnf_answer.accepted, !warned,
            "{}: dnf accepted {}, the console warned {warned}:\n{}",
            cell.name, dnf_answer.accepted, dnf_answer.output
        );
        rows.push((cell, dnf_answer, refusing, allowing));
    }
    let table: Vec<(&str, bool, &str, &str)> = rows
        .iter()
        .map(|(cell, dnf, refusing, allowing)| {
            (
                cell.name,
                dnf.accepted,
                refusing.as_str(),
                allowing.as_str(),
            )
        })
        .collect();
    // (repository, dnf accepts, badge with the default policy, badge allowing unsigned metadata)
    assert_eq!(
        table,
        vec![
            ("rc-hg-dnf-checked-signed", true, "verified", "verified"),
            ("rc-hg-dnf-checked-unsigned", false, "partial", "partial"),
            ("rc-hg-dnf-unchecked-signed", true, "partial", "verified"),
            ("rc-hg-dnf-unchecked-unsigned", true, "partial", "verified"),
        ]
    );
    // dnf refuses unsigned metadata with repo_gpgcheck=1 because the signature is missing.
    let refused = &rows[1].1.output;
    assert!(refused.contains("repomd.xml.asc"), "{refused}");
}
