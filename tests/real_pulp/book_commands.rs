//! Issue 45: the pulp-cli commands of the book's getting-started page ("What makes a version
//! Verified" in docs/src/getting-started/your-pulp.md), run as written against the real Pulp.
//! Each block the test runs follows a marker `<!-- tested: pulp-cli NAME ... -->`; the test
//! takes it from the page, renames the page's examples to repositories of its own (`rc-hg-book-*`)
//! and the signing service to the test Pulp's `rc-metadata-signer`, and runs it with pulp-cli
//! (the version pinned in tests/real_pulp/pulp-cli.version, installed by scripts/test.sh into a
//! cached virtualenv named by RC_TEST_PULP_CLI) configured for the test Pulp. The repositories
//! start unverified, so only the commands can make them verified; the console then shows each
//! Verified as the policy says, its production distribution serving the version just published.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use repo_console::domain::policy::metadata::MetadataPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::UnsignedMetadata;
use serde_json::{json, Value};

use super::console::{attr, over_upstream, select};
use super::support::{exclusive, required_pulp, TestPulp};

const PAGE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/docs/src/getting-started/your-pulp.md"
);

/// The first fenced block after the marker `<!-- tested: pulp-cli {name} `, without its fences.
fn block(page: &str, name: &str) -> String {
    let marker = format!("<!-- tested: pulp-cli {name} ");
    let after = page
        .split_once(&marker)
        .unwrap_or_else(|| panic!("{PAGE} has no marker {marker:?}"))
        .1;
    let fenced = after
        .split_once("```sh\n")
        .expect("a ```sh block follows the marker")
        .1;
    fenced
        .split_once("\n```")
        .expect("the block is closed")
        .0
        .to_owned()
}

/// The pulp-cli program; fails the test where there is none.
fn pulp_cli() -> String {
    std::env::var("RC_TEST_PULP_CLI")
        .ok()
        .filter(|p| Path::new(p).is_file())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "pulp-cli",
                "no RC_TEST_PULP_CLI naming its `pulp` program (scripts/test.sh installs the \
                 pinned version into a cached virtualenv)",
            )
        })
}

/// Runs `script` with bash (`-euo pipefail`), pulp-cli first on the `PATH` and configured for
/// `pulp` (its own `cli.toml` and cache in a temporary directory). Panics with the output when
/// a command fails.
fn run_with_pulp_cli(pulp: &TestPulp, script: &str) {
    let program = pulp_cli();
    let bin = Path::new(&program)
        .parent()
        .expect("the venv's bin directory");
    let home = tempfile::tempdir().expect("a temporary directory");
    let config = home.path().join("config/pulp");
    std::fs::create_dir_all(&config).expect("mkdir");
    std::fs::write(
        config.join("cli.toml"),
        format!(
            "[cli]\nbase_url = {:?}\napi_root = \"/pulp/\"\nusername = {:?}\npassword = {:?}\n\
             verify_ssl = true\nformat = \"json\"\n",
            pulp.base_url, pulp.username, pulp.password
        ),
    )
    .expect("write cli.toml");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .env("PATH", path)
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        .output()
        .expect("bash runs");
    assert!(
        out.status.success(),
        "the book's commands failed:\n{script}\n---\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The badge of the console's versions page of `repository`, and whether the row of
/// `version` is the one production (`distribution`) serves.
async fn console_says(
    pulp: &TestPulp,
    policy: Option<Policy>,
    repository: &str,
    distribution: &str,
    version: u64,
) -> (String, bool) {
    let mut builder = over_upstream(Arc::new(pulp.client()), 25).production(HashMap::from([(
        repository.to_owned(),
        distribution.to_owned(),
    )]));
    if let Some(policy) = policy {
        builder = builder.policy(policy);
    }
    let console = builder.spawn().await;
    let id = pulp.repo_id(repository);
    let page = console.get(&format!("/repos/{id}/versions")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let html = page.html();
    let badge = select(&html, "#verification [data-badge]");
    assert_eq!(badge.len(), 1, "one badge in the verification detail");
    let row = select(&html, &format!("tr[data-version=\"{version}\"]"));
    assert_eq!(row.len(), 1, "a row for version {version}");
    (
        attr(&badge[0], "data-badge").to_owned(),
        attr(&row[0], "data-deployed") == "true",
    )
}

/// Sets `repository` back to unverified and removes its distribution `distribution`, so that
/// only the book's commands can make them as the test expects. Answers its latest version.
fn start_unverified(pulp: &TestPulp, repository: &str, distribution: &str) -> u64 {
    let href = pulp.repository_with_one_version(
        repository,
        &json!({
            "repo_config": {},
            "checksum_type": Value::Null,
            "metadata_signing_service": Value::Null,
        }),
    );
    if let Some(dist) = pulp.href_named("distributions/rpm/rpm/", distribution) {
        pulp.raw_ok("DELETE", &dist, None);
    }
    pulp.raw_ok("GET", &href, None)["latest_version_href"]
        .as_str()
        .and_then(|v| v.trim_end_matches('/').rsplit('/').next())
        .and_then(|n| n.parse().ok())
        .expect("a latest version number")
}

fn allowing_unsigned_metadata() -> Policy {
    Policy::new(BTreeMap::new(), Allowed::Everyone).with_metadata(MetadataPolicy::new(
        UnsignedMetadata::Allow,
        BTreeMap::new(),
    ))
}

#[tokio::test]
#[ignore = "needs a real Pulp and pulp-cli"]
async fn the_books_pulp_cli_commands_make_a_verified_repository_and_its_distribution() {
    let pulp = required_pulp();
    let _held = exclusive("rc-hg-book").await;
    let page = std::fs::read_to_string(PAGE).expect("the getting-started page");
    pulp.metadata_signer();

    // Signed: verified under the default policy.
    let (repository, distribution) = ("rc-hg-book-baseos", "rc-hg-book-baseos-prod");
    let version = start_unverified(&pulp, repository, distribution);
    let (before, _) = console_says(&pulp, None, repository, "rc-hg-book-absent", version).await;
    assert_ne!(before, "verified", "the repository starts unverified");
    let script = block(&page, "signed")
        .replace("rhel9-baseos", repository)
        .replace("sign-metadata", "rc-metadata-signer");
    run_with_pulp_cli(&pulp, &script);
    assert!(
        pulp.href_named("distributions/rpm/rpm/", distribution)
            .is_some(),
        "the commands made {distribution}"
    );
    assert_eq!(
        console_says(&pulp, None, repository, distribution, version).await,
        ("verified".to_owned(), true),
        "{repository}: verified, and production serves v{version}"
    );

    // Unsigned, repo_gpgcheck off: verified where the policy allows unsigned metadata.
    let (repository, distribution) = ("rc-hg-book-internal", "rc-hg-book-internal-prod");
    let version = start_unverified(&pulp, repository, distribution);
    let script = block(&page, "unsigned").replace("internal-tools", repository);
    run_with_pulp_cli(&pulp, &script);
    assert_eq!(
        console_says(
            &pulp,
            Some(allowing_unsigned_metadata()),
            repository,
            distribution,
            version
        )
        .await,
        ("verified".to_owned(), true),
        "{repository}: verified where unsigned metadata is allowed, production serves v{version}"
    );
    assert_eq!(
        console_says(&pulp, None, repository, distribution, version)
            .await
            .0,
        "partial",
        "{repository}: not verified under the default policy"
    );
}
