//! Issue 12 against the real Pulp: the content diff `PulpClient` reads (checked against the
//! in-memory Pulp holding the same story), the confirm step's diff and its upstream cost,
//! the compare page, and the unsigned-metadata warning (checked against Pulp's own API).

use std::collections::BTreeSet;
use std::sync::Arc;

use repo_console::adapters::memory::InMemoryPulp;
use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::domain::diff::{Advisory, ContentRead, Package};
use repo_console::domain::repository::{ChecksumType, RepoVerification, Repository, VersionNumber};
use repo_console::ports::{ContentCatalog, PackageCatalog, RepositoryManager};
use serde_json::Value;

use super::console::{
    attr, change_kinds, over_upstream, package_changes, select, text, Counting, CountingProxy,
};
use super::support::{repo_named, required_pulp};
use crate::acme::{add_acme, NET_PACKAGE_CHANGES};

/// rc-changes' settings as seed.sh makes them (its metadata signed by rc-metadata-signer).
fn seeded_settings() -> RepoVerification {
    RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    }
}

fn packages(list: Vec<Package>) -> BTreeSet<String> {
    list.into_iter()
        .map(|p| format!("{} {} {}", p.name, p.evr, p.arch))
        .collect()
}

fn advisories(list: Vec<Advisory>) -> BTreeSet<String> {
    list.into_iter()
        .map(|a| {
            let severity = a.severity.unwrap_or_default();
            let kind = a.kind.as_str().to_owned();
            format!("{} {kind} {severity} [{}]", a.id, a.packages.join(","))
        })
        .collect()
}

/// Everything a catalog says about versions 5, 2 and 0 of a repository, by every read.
async fn story(catalog: &dyn ContentCatalog, repo: &Repository) -> Vec<BTreeSet<String>> {
    let v = |n| repo.version_href(VersionNumber::new(n));
    let (v0, v2, v4, v5) = (v(0), v(2), v(4), v(5));
    let mut out = Vec::new();
    for (version, read) in [
        (&v5, ContentRead::NotIn(v2.clone())),
        (&v2, ContentRead::NotIn(v5.clone())),
        (&v2, ContentRead::All),
        (&v5, ContentRead::NotIn(v0.clone())),
        (&v5, ContentRead::Added),
        (&v5, ContentRead::Removed),
        (&v4, ContentRead::Added),
        (&v4, ContentRead::Removed),
    ] {
        out.push(packages(
            catalog.packages(version, &read).await.expect("packages"),
        ));
        out.push(advisories(
            catalog
                .advisories(version, &read)
                .await
                .expect("advisories"),
        ));
    }
    let names = [
        "acme-c".to_owned(),
        "acme-d".to_owned(),
        "nothing".to_owned(),
    ];
    out.push(packages(
        catalog.package_builds(&v5, &names).await.expect("builds"),
    ));
    out
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn pulp_answers_the_content_diff_the_in_memory_pulp_answers() {
    let pulp = required_pulp();
    let client = pulp.client();
    let id = repo_named(&client, "rc-changes").await;
    let real = story(&client, &client.get_repo(&id).await.expect("repo")).await;

    let memory = InMemoryPulp::default();
    let acme = add_acme(&memory, seeded_settings());
    let fake = story(&memory, &memory.get_repo(&acme).await.expect("repo")).await;

    let set = |items: &[&str]| {
        items
            .iter()
            .map(|s| (*s).to_owned())
            .collect::<BTreeSet<_>>()
    };
    assert_eq!(
        real[0],
        set(&[
            "acme-a 1-1 noarch",
            "acme-c 2-1 noarch",
            "acme-d 1-1 noarch"
        ]),
        "v5 not in v2: the re-added acme-e is no change"
    );
    assert_eq!(
        real[1],
        set(&[
            "RC-BA-0001 bugfix  [acme-a]",
            "RC-EA-0001 enhancement  [acme-a]",
            "RC-SA-0001 security Critical [acme-c]"
        ])
    );
    assert_eq!(
        real[2],
        set(&[
            "acme-b 1-1 noarch",
            "acme-c 1-1 noarch",
            "acme-d 2-1 noarch"
        ])
    );
    assert_eq!(real[3], set(&["RC-SA-OLD security Moderate [acme-b]"]));
    assert_eq!(real[4].len(), 5, "every package of v2: {:?}", real[4]);
    assert_eq!(real[5].len(), 2, "every advisory of v2: {:?}", real[5]);
    assert_eq!(real[8], set(&["acme-d 1-1 noarch"]), "what v5 added to v4");
    assert_eq!(
        real[10],
        set(&["acme-d 2-1 noarch"]),
        "what v5 removed from v4"
    );
    assert_eq!(real[11], set(&["RC-SA-OLD security Moderate [acme-b]"]));
    assert_eq!(
        real[12],
        set(&["acme-c 2-1 noarch", "acme-e 1-1 noarch"]),
        "v4 added acme-c 2 and acme-e back"
    );
    assert_eq!(
        real[16],
        set(&["acme-c 2-1 noarch", "acme-d 1-1 noarch"]),
        "v5's builds of two names (and of a name it lacks)"
    );
    assert_eq!(real, fake, "the in-memory Pulp answers as the real one");
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn an_unknown_version_is_refused_by_pulp_and_by_the_fake_alike() {
    let pulp = required_pulp();
    let client = pulp.client();
    let id = repo_named(&client, "rc-changes").await;
    let repo = client.get_repo(&id).await.expect("repo");
    let missing = repo.version_href(VersionNumber::new(999));
    let error = client
        .packages(&missing, &ContentRead::All)
        .await
        .expect_err("no version 999");
    let memory = InMemoryPulp::default();
    let acme = add_acme(&memory, seeded_settings());
    let fake_repo = memory.get_repo(&acme).await.expect("repo");
    let fake = memory
        .packages(
            &fake_repo.version_href(VersionNumber::new(999)),
            &ContentRead::All,
        )
        .await
        .expect_err("no version 999");
    for e in [&error, &fake] {
        let shown = e.detail();
        assert!(
            shown.contains("HTTP 400") && shown.contains("not found for repositoryversion"),
            "{shown}"
        );
    }
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn the_confirm_step_shows_the_diff_in_at_most_twelve_requests_then_from_the_cache() {
    let pulp = required_pulp();
    let id = pulp.repo_id("rc-changes");
    assert_eq!(
        pulp.deployed_version(&id),
        Some(2),
        "rc-changes-prod serves v2"
    );
    let proxy = CountingProxy::start(&pulp.base_url).await;
    let client = PulpClient::new(PulpSettings {
        base_url: proxy.url.clone(),
        ..pulp.settings()
    })
    .expect("settings");
    let counting = Arc::new(Counting::new(client));
    let console = over_upstream(counting.clone(), 25).spawn().await;
    console.get("/readyz").await; // logs in
    proxy.take();

    let reply = console
        .get(&format!("/repos/{id}/deploy/confirm?version=5"))
        .await;
    let requests = proxy.take();
    assert_eq!(reply.status, 200, "{}", reply.body);
    println!(
        "confirm step with a diff over the real Pulp: {} HTTP requests: {requests:?}",
        requests.len()
    );
    // With pulp_deb beside pulp_rpm: the repository's type looked up once, Debian's
    // distributions, and their publications when some serve one.
    let deb = pulp
        .deb_held()
        .map_or(0, |held| 2 + usize::from(held.publishing > 0));
    assert!(requests.len() <= 12 + deb, "{requests:?}");
    assert_eq!(
        requests
            .iter()
            .filter(|r| r.contains("/content/rpm/"))
            .count(),
        5,
        "v2 and v5 are far apart: packages and advisories each way, then the builds v5 \
         holds of the names that differ: {requests:?}"
    );
    assert_eq!(
        requests.iter().filter(|r| r.contains("name__in=")).count(),
        1,
        "{requests:?}"
    );
    assert!(
        requests
            .iter()
            .filter(|r| r.contains("/content/rpm/packages/"))
            .all(
                |r| r.contains("fields=name%2Cepoch%2Cversion%2Crelease%2Carch")
                    || r.contains("fields=name,epoch,version,release,arch")
            ),
        "only the fields shown are asked: {requests:?}"
    );
    let html = reply.html();
    let changes = package_changes(&html);
    assert_eq!(change_kinds(&changes), NET_PACKAGE_CHANGES);
    assert!(
        changes[1].2.contains("1-1 \u{2192} 2-1"),
        "{}",
        changes[1].2
    );
    let types: Vec<(&str, &str)> = select(&html, "[data-advisory]")
        .iter()
        .map(|e| (attr(e, "data-advisory"), attr(e, "data-advisory-type")))
        .collect();
    assert_eq!(
        types,
        [
            ("RC-SA-0001", "security"),
            ("RC-BA-0001", "bugfix"),
            ("RC-EA-0001", "enhancement"),
            ("RC-SA-OLD", "security")
        ]
    );
    assert!(text(&select(&html, "#advisory-regression")[0]).contains("RC-SA-OLD"));

    console
        .get(&format!("/repos/{id}/deploy/confirm?version=5"))
        .await;
    let again = proxy.take();
    assert!(
        again.iter().all(|r| !r.contains("/content/rpm/")),
        "the second time the diff comes from the cache: {again:?}"
    );
    let compare = console
        .get(&format!("/repos/{id}/versions/5/changes?against=2"))
        .await;
    assert_eq!(compare.status, 200);
    assert_eq!(select(&compare.html(), "[data-change]").len(), 4);
    assert!(proxy.take().iter().all(|r| !r.contains("/content/rpm/")));
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn repo_gpgcheck_without_a_signing_service_is_warned_as_pulp_configures_it() {
    let pulp = required_pulp();
    let id = pulp.repo_id("rc-unsigned-meta");
    let raw: Value = pulp.raw_ok("GET", &format!("repositories/rpm/rpm/{id}/"), None);
    assert_eq!(raw["repo_config"]["repo_gpgcheck"], 1, "{raw}");
    assert!(raw["metadata_signing_service"].is_null(), "{raw}");
    let console = over_upstream(Arc::new(pulp.client()), 25).spawn().await;
    let page = format!("/repos/{id}/versions");
    let html = console.get(&page).await.html();
    let warning = select(&html, "[data-warning=unsigned-metadata]");
    assert_eq!(warning.len(), 1, "{page}");
    assert!(text(&warning[0]).contains("repomd.xml.asc"));
    // Clients refuse it, so it is not verified: its confirm step is refused, saying why.
    let confirm = console
        .get(&format!("/repos/{id}/deploy/confirm?version=1"))
        .await;
    assert_eq!(confirm.status, 409, "{}", confirm.body);
    assert!(
        confirm.body.contains("metadata_signing_service"),
        "{}",
        confirm.body
    );
    // A repository whose metadata rc-metadata-signer signs is verified and not warned.
    let signed = pulp.repo_id("rc-changes");
    let html = console
        .get(&format!("/repos/{signed}/versions"))
        .await
        .html();
    assert!(select(&html, "[data-warning]").is_empty());
    assert_eq!(
        attr(
            &select(&html, "#verification [data-badge]")[0],
            "data-badge"
        ),
        "verified"
    );
    let partial = pulp.repo_id("rc-partial");
    let html = console
        .get(&format!("/repos/{partial}/versions"))
        .await
        .html();
    assert!(
        select(&html, "[data-warning]").is_empty(),
        "repo_gpgcheck off: clients check no metadata signature"
    );
}
