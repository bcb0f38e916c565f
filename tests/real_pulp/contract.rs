//! The `RepositoryManager` contract, on the seeded `rc-verified` facts. It runs against
//! the real Pulp (client.rs) and against `InMemoryPulp` (memory.rs), so that the fake
//! cannot drift from reality.
//!
//! Seeded: `rc-verified` (gpgcheck 1, repo_gpgcheck 1, sha256):
//! v1 +hello-1.0 +world-2.0 | v2 +hello-1.1 +extra-0.1 | v3 +hello-1.2 −extra-0.1 |
//! v4 +world-2.1 −hello-1.0 | v5 +extra-0.1 −world-2.0; `rc-verified-prod` → pub(v3),
//! `rc-verified-staging` → the repository; `rc-broken-mirror` with an unreachable remote.

use std::collections::HashSet;

use repo_console::app::diffs::read::read_difference;
use repo_console::domain::content::kind::ContentType;
use repo_console::domain::deploy::DeployId;
use repo_console::domain::diff::{Advisory, ContentRead, DiffEnd, Package, VersionDiff};
use repo_console::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use repo_console::domain::repository::{
    Badge, ChangeState, ChecksumType, DistributionHref, PublicationHref, RepoId, RepoVersion,
    UnsignedMetadata, VersionHref, VersionNumber,
};
use repo_console::domain::sync::SyncState;
use repo_console::ports::{
    correlation, AdvisoryCatalog, ContentCatalog, PackageCatalog, Page, PageRequest,
    RepositoryManager, UpstreamError, WriteOutcome,
};

use super::support::repo_named;

/// (number, packages, added, removed) of each rc-verified version.
const VERSIONS: [(u64, u64, u64, u64); 6] = [
    (0, 0, 0, 0),
    (1, 2, 2, 0),
    (2, 4, 2, 0),
    (3, 4, 1, 1),
    (4, 4, 1, 1),
    (5, 4, 1, 1),
];

/// What the port cannot create and the caller provides.
pub struct Fixture {
    /// A distribution nothing else uses: the contract repoints it.
    pub scratch_distribution: DistributionHref,
}

pub async fn repository_manager_contract(m: &dyn RepositoryManager, fixture: &Fixture) {
    let id = repo_named(m, "rc-verified").await;
    lists_repositories_in_pages(m, &id).await;
    finds_a_repository_by_its_name(m, &id).await;
    reads_the_repository_and_its_verification(m, &id).await;
    reads_versions_by_screen_and_by_number(m, &id).await;
    let published = finds_production_and_its_publication(m, &id).await;
    reads_publications_by_href(m, &id, &published).await;
    publishes_and_repoints_a_distribution(m, &id, fixture).await;
    reports_a_failed_sync_task(m).await;
    answers_404_for_what_does_not_exist(m, &id).await;
}

async fn finds_a_repository_by_its_name(m: &dyn RepositoryManager, id: &RepoId) {
    let found = m.repo_named("rc-verified").await.expect("repo_named");
    assert_eq!(found.map(|r| r.id), Some(id.clone()));
    let none = m
        .repo_named("rc-no-such-repository")
        .await
        .expect("repo_named");
    assert_eq!(none.map(|r| r.id), None);
    // A name is matched whole, never as a prefix.
    let prefix = m.repo_named("rc-verif").await.expect("repo_named");
    assert_eq!(prefix.map(|r| r.id), None);
}

async fn lists_repositories_in_pages(m: &dyn RepositoryManager, id: &RepoId) {
    let first = m
        .list_repos(PageRequest {
            offset: 0,
            limit: 2,
        })
        .await
        .expect("list_repos");
    assert!(
        first.items.len() <= 2 && first.total >= 2,
        "page of 2 of {}",
        first.total
    );
    let all = m
        .list_repos(PageRequest {
            offset: 0,
            limit: first.total,
        })
        .await
        .expect("list_repos");
    assert_eq!(all.items.len() as u64, all.total);
    let ids: HashSet<_> = all.items.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids.len(), all.items.len(), "no repository twice");
    assert!(ids.contains(id));
    assert_eq!(
        &all.items[..first.items.len()],
        &first.items[..],
        "pages agree with the whole list"
    );
}

async fn reads_the_repository_and_its_verification(m: &dyn RepositoryManager, id: &RepoId) {
    let repo = m.get_repo(id).await.expect("get_repo");
    assert_eq!(&repo.id, id);
    assert_eq!(repo.display_name(), "rc-verified");
    assert_eq!(repo.verification.gpgcheck, Some(true));
    assert_eq!(repo.verification.repo_gpgcheck, Some(true));
    assert_eq!(repo.verification.checksum, Some(ChecksumType::Sha256));
    assert_eq!(
        repo.verification.badge(UnsignedMetadata::Refuse),
        Badge::Verified
    );
    assert_eq!(
        repo.latest_version.and_then(|v| v.number()),
        Some(VersionNumber::new(5))
    );
}

async fn reads_versions_by_screen_and_by_number(m: &dyn RepositoryManager, id: &RepoId) {
    let seen = |versions: &[RepoVersion]| -> Vec<(u64, u64, u64, u64)> {
        versions
            .iter()
            .map(|v| {
                let n = v.number().expect("numbered").get();
                (n, v.package_count, v.added, v.removed)
            })
            .collect()
    };
    let all = m
        .version_page(
            id,
            PageRequest {
                offset: 0,
                limit: 100,
            },
        )
        .await
        .expect("version_page");
    assert_eq!(
        all.total,
        VERSIONS.len() as u64,
        "the total is Pulp's count"
    );
    let newest_first: Vec<_> = VERSIONS.iter().rev().copied().collect();
    assert_eq!(seen(&all.items), newest_first);
    assert!(all.items.iter().all(|v| v.href.belongs_to(id)));
    assert!(
        all.items.windows(2).all(|w| w[0].created >= w[1].created),
        "created in number order"
    );
    let slice = m
        .version_page(
            id,
            PageRequest {
                offset: 1,
                limit: 2,
            },
        )
        .await
        .expect("a slice");
    assert_eq!(seen(&slice.items), newest_first[1..3]);
    assert_eq!(slice.total, VERSIONS.len() as u64);

    let asked = [3, 1, 99, 0, 2, 4, 5, 3].map(VersionNumber::new);
    let mut numbered = m
        .versions_numbered(id, &asked)
        .await
        .expect("versions_numbered");
    numbered.sort_by_key(|v| v.number());
    assert_eq!(
        seen(&numbered),
        VERSIONS,
        "those that exist, once each, across batches of numbers"
    );
    assert_eq!(
        m.versions_numbered(id, &[VersionNumber::new(99)]).await,
        Ok(Vec::new())
    );
    assert_eq!(
        m.versions_newer_than(id, VersionNumber::new(3)).await,
        Ok(2)
    );
    assert_eq!(
        m.versions_newer_than(id, VersionNumber::new(5)).await,
        Ok(0)
    );
}

async fn finds_production_and_its_publication(
    m: &dyn RepositoryManager,
    id: &RepoId,
) -> PublicationHref {
    let dists = m.list_distributions().await.expect("list_distributions");
    let named = |name: &str| {
        dists
            .iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("{name} listed"))
    };
    let prod = named("rc-verified-prod");
    assert_eq!(
        named("rc-verified-staging").publication,
        None,
        "staging follows the repository"
    );
    assert_eq!(
        &m.get_distribution(&prod.href)
            .await
            .expect("get_distribution"),
        prod
    );
    let wanted = [
        "rc-verified-prod",
        "rc-verified-staging",
        "rc-no-such-distribution",
    ];
    let mut found = m
        .distributions_named(&wanted.map(String::from))
        .await
        .expect("distributions_named");
    found.sort_by(|a, b| a.name.cmp(&b.name));
    assert_eq!(
        found,
        [prod.clone(), named("rc-verified-staging").clone()],
        "by name, the ones that exist"
    );
    let href = prod.publication.clone().expect("prod serves a publication");
    let publication = m.get_publication(&href).await.expect("get_publication");
    assert!(publication.repository_version.belongs_to(id));
    assert_eq!(
        publication.repository_version.number(),
        Some(VersionNumber::new(3))
    );
    assert_eq!(
        m.get_publication(&href).await.expect("again"),
        publication,
        "same answer twice"
    );
    href
}

/// The href a publication would have in this Pulp, of none that exists.
async fn missing_publication(m: &dyn RepositoryManager, id: &RepoId) -> PublicationHref {
    let repo = m.get_repo(id).await.expect("get_repo");
    let api = repo
        .href
        .split("repositories/")
        .next()
        .expect("an API prefix");
    PublicationHref::new(format!(
        "{api}publications/rpm/rpm/00000000-0000-0000-0000-000000000000/"
    ))
}

async fn reads_publications_by_href(
    m: &dyn RepositoryManager,
    id: &RepoId,
    prod: &PublicationHref,
) {
    let missing = missing_publication(m, id).await;
    let found = m
        .publications(&[prod.clone(), missing, prod.clone()])
        .await
        .expect("publications");
    assert_eq!(found.len(), 1, "the one that exists, once: {found:?}");
    assert_eq!(&found[0].href, prod);
    assert!(found[0].repository_version.belongs_to(id));
}

async fn publishes_and_repoints_a_distribution(
    m: &dyn RepositoryManager,
    id: &RepoId,
    fixture: &Fixture,
) {
    let repo = m.get_repo(id).await.expect("get_repo");
    let v5 = repo.version_href(VersionNumber::new(5));
    let deploy_id = DeployId::new(uuid::Uuid::new_v4().to_string());
    let in_scope = |id: &DeployId| id.as_str().to_owned();
    let created = match correlation::scope(in_scope(&deploy_id), m.publish(&v5)).await {
        WriteOutcome::Applied(created) => created,
        other => panic!("publishing v5 is applied, got {other:?}"),
    };
    let publication = m.get_publication(&created).await.expect("new publication");
    let by_href = m
        .publications(&[created.clone(), created.clone()])
        .await
        .expect("publications by href");
    assert_eq!(by_href, std::slice::from_ref(&publication), "once, as read");
    assert_eq!(
        publication.repository_version.number(),
        Some(VersionNumber::new(5))
    );
    assert!(publication.repository_version.belongs_to(id));

    let scratch = &fixture.scratch_distribution;
    let before = m.get_distribution(scratch).await.expect("get_distribution");
    assert!(before.revision.is_some(), "a revision: {before:?}");
    assert_eq!(
        correlation::scope(
            in_scope(&deploy_id),
            m.point_distribution(scratch, &publication.href)
        )
        .await,
        WriteOutcome::Applied(()),
        "the distribution update is applied"
    );
    let now = m.get_distribution(scratch).await.expect("get_distribution");
    assert_eq!(now.publication, Some(publication.href.clone()));
    assert_ne!(now.revision, before.revision, "a write moves the revision");
    let named = m
        .distributions_named(std::slice::from_ref(&now.name))
        .await
        .expect("distributions_named");
    assert_eq!(named, std::slice::from_ref(&now), "as read by href");
    // Pointing it at the publication it serves is a write too: a kept record of the
    // distribution's changes relies on it (see `WholeRecord`).
    assert_eq!(
        m.point_distribution(scratch, &publication.href).await,
        WriteOutcome::Applied(())
    );
    let again = m.get_distribution(scratch).await.expect("get_distribution");
    assert_eq!(again.publication, now.publication);
    assert_ne!(
        again.revision, now.revision,
        "the same publication again moves it too"
    );
    let changes = m
        .distribution_changes(scratch, 3)
        .await
        .expect("distribution_changes");
    assert!(changes.len() <= 3, "at most the limit: {changes:?}");
    let deployed = &changes[1];
    assert_eq!(
        deployed.correlation.as_deref(),
        Some(deploy_id.as_str()),
        "the change before the newest is the deploy's, carrying its id: {changes:?}"
    );
    assert_ne!(changes[0].correlation, deployed.correlation, "{changes:?}");
    assert_eq!(deployed.state, ChangeState::Completed);
    assert!(!deployed.by.is_empty());
    assert!(
        changes.windows(2).all(|w| w[0].at >= w[1].at),
        "newest first: {changes:?}"
    );
}

async fn reports_a_failed_sync_task(m: &dyn RepositoryManager) {
    let broken = repo_named(m, "rc-broken-mirror").await;
    let remote = m
        .get_repo(&broken)
        .await
        .expect("get_repo")
        .remote
        .expect("the broken mirror has a remote");
    m.start_sync(&broken, &remote).await.expect("sync starts");
    let verified = repo_named(m, "rc-verified").await;
    let both = [broken.clone(), verified.clone()];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    let states = loop {
        let states = m.sync_states(&both).await.expect("sync_states");
        let running = matches!(states.get(&broken), Some(SyncState::Running(_)));
        if !running || std::time::Instant::now() > deadline {
            break states;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    match states.get(&broken) {
        Some(SyncState::Failed(failure)) => {
            let detail = failure.detail.as_deref().unwrap_or_default();
            assert!(
                detail.to_lowercase().contains("connect"),
                "upstream's reason, for the log: {detail}"
            );
            assert_eq!(failure.reason, "failed in Pulp", "the console's words");
            assert!(failure.task.is_some(), "upstream's task is named");
        }
        other => panic!("a sync from a refused port fails, got {other:?}"),
    }
    assert!(
        !states.contains_key(&verified),
        "rc-verified was never synchronized"
    );
}

async fn answers_404_for_what_does_not_exist(m: &dyn RepositoryManager, id: &RepoId) {
    let nobody = RepoId::parse("00000000-0000-0000-0000-000000000000").expect("a uuid");
    match m.get_repo(&nobody).await {
        Err(e @ UpstreamError::Http { status: 404, .. }) => assert!(e.is_not_found()),
        other => panic!("expected a 404, got {other:?}"),
    }
    let screen = PageRequest {
        offset: 0,
        limit: 5,
    };
    let not_found = [
        m.version_page(&nobody, screen).await.map(|_| ()),
        m.versions_numbered(&nobody, &[VersionNumber::new(1)])
            .await
            .map(|_| ()),
        m.versions_newer_than(&nobody, VersionNumber::new(1))
            .await
            .map(|_| ()),
    ];
    for answer in not_found {
        assert!(
            answer.as_ref().is_err_and(UpstreamError::is_not_found),
            "{answer:?}"
        );
    }
    let missing = missing_publication(m, id).await;
    assert!(m
        .get_publication(&missing)
        .await
        .expect_err("no publication")
        .is_not_found());
}

/// The Debian repository both upstreams hold for [`debian_repository_contract`]: `name` with
/// v1 `rcdeb-hello 2.0~rc1-1`, v2 `2.0-1`, v3 `2.0-1` and `2.0-1+b1`, v4 `1:0.9-1` (all
/// `all`), unsigned, and `scratch`, a pulp_deb distribution nothing else uses.
pub struct DebFixture {
    pub name: String,
    pub scratch_distribution: DistributionHref,
}

/// An upstream's packages, and a guard on its advisories: a read that asks advisories of a
/// type without them fails the test.
struct PackagesOnly<'a, P>(&'a P);

#[async_trait::async_trait]
impl<P: PackageCatalog> PackageCatalog for PackagesOnly<'_, P> {
    async fn packages(
        &self,
        version: &VersionHref,
        read: &ContentRead,
    ) -> Result<Vec<Package>, UpstreamError> {
        self.0.packages(version, read).await
    }

    async fn package_builds(
        &self,
        version: &VersionHref,
        names: &[String],
    ) -> Result<Vec<Package>, UpstreamError> {
        self.0.package_builds(version, names).await
    }
}

#[async_trait::async_trait]
impl<P: Sync> AdvisoryCatalog for PackagesOnly<'_, P> {
    async fn advisories(
        &self,
        version: &VersionHref,
        _: &ContentRead,
    ) -> Result<Vec<Advisory>, UpstreamError> {
        panic!("advisories asked of {version}, whose type carries none")
    }

    async fn advisory_fixes(&self, _: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        panic!("advisory fixes asked while reading a Debian repository")
    }

    async fn advisories_held(
        &self,
        version: &VersionHref,
        _: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        panic!("advisories held asked of {version}, whose type carries none")
    }

    async fn advisory_references(
        &self,
        _: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        panic!("advisory references asked while reading a Debian repository")
    }
}

/// What every upstream says of a Debian repository (issue 46): listed beside the RPM ones with
/// its type, judged by apt's rule, versions with their package counts, packages by (name,
/// architecture, version) in Debian's order, no advisories by its type, and a version
/// published and served like an RPM one.
pub async fn debian_repository_contract<P: RepositoryManager + ContentCatalog>(
    m: &P,
    fixture: &DebFixture,
) {
    let id = repo_named(m, &fixture.name).await;
    let repo = m.get_repo(&id).await.expect("get_repo");
    assert_eq!(repo.content_type(), ContentType::Deb);
    assert_eq!(
        repo.verification.gpgcheck, None,
        "dnf's settings are not apt's"
    );
    assert_eq!(repo.verification.metadata_signed, Some(false));
    assert_eq!(
        repo.verification.badge(UnsignedMetadata::Refuse),
        Badge::Unverified
    );
    assert_eq!(
        repo.verification.badge(UnsignedMetadata::Allow),
        Badge::Verified
    );

    let page = m
        .version_page(
            &id,
            PageRequest {
                offset: 0,
                limit: 10,
            },
        )
        .await
        .expect("version_page");
    assert_eq!(page.total, 5, "v0..v4");
    let counts: Vec<(u64, u64, u64, u64)> = page
        .items
        .iter()
        .map(|v| {
            (
                v.number().expect("n").get(),
                v.package_count,
                v.added,
                v.removed,
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            (4, 1, 1, 2),
            (3, 2, 1, 0),
            (2, 1, 1, 1),
            (1, 1, 1, 0),
            (0, 0, 0, 0)
        ]
    );

    let v3 = repo.version_href(VersionNumber::new(3));
    let mut held = m.packages(&v3, &ContentRead::All).await.expect("packages");
    held.sort_by(|a, b| a.evr.total_cmp(&b.evr));
    let shown: Vec<String> = held
        .iter()
        .map(|p| format!("{} {} {}", p.name, p.arch, p.evr))
        .collect();
    assert_eq!(shown, ["rcdeb-hello all 2.0-1", "rcdeb-hello all 2.0-1+b1"]);
    let v4 = m
        .packages(&repo.version_href(VersionNumber::new(4)), &ContentRead::All)
        .await
        .expect("packages");
    assert_eq!(
        v4[0].evr.version_cmp(&held[1].evr),
        std::cmp::Ordering::Greater,
        "1:0.9-1 is newer than 2.0-1+b1 by its epoch"
    );
    // No advisories by its type: the diff says they do not apply, and the advisory port is
    // never asked (the guard fails the test if it is).
    let v1 = repo.version_href(VersionNumber::new(1));
    let end = |href| DiffEnd { href, count: None };
    let difference = read_difference(
        &PackagesOnly(m),
        repo.content_type(),
        Some(end(&v1)),
        end(&v3),
    )
    .await
    .expect("the difference of two Debian versions");
    assert_eq!(
        difference.advisories.carried().map(|_| ()),
        None,
        "not applicable, not an empty list"
    );
    let changed: Vec<String> = VersionDiff::new(
        read_difference(
            &PackagesOnly(m),
            repo.content_type(),
            Some(end(&v1)),
            end(&v3),
        )
        .await
        .expect("again"),
    )
    .packages
    .iter()
    .map(|c| format!("{} {:?}", c.name, c.kind))
    .collect();
    assert_eq!(changed, ["rcdeb-hello Upgraded"]);

    let v2 = repo.version_href(VersionNumber::new(2));
    let WriteOutcome::Applied(publication) = m.publish(&v2).await else {
        panic!("publishing a Debian version is applied");
    };
    assert_eq!(
        m.get_publication(&publication)
            .await
            .expect("publication")
            .repository_version,
        v2
    );
    assert_eq!(
        m.point_distribution(&fixture.scratch_distribution, &publication)
            .await,
        WriteOutcome::Applied(())
    );
    let served = m
        .get_distribution(&fixture.scratch_distribution)
        .await
        .expect("distribution");
    assert_eq!(served.publication, Some(publication));
    let listed = m.list_distributions().await.expect("distributions");
    assert!(
        listed
            .iter()
            .any(|d| d.href == fixture.scratch_distribution),
        "Debian distributions are listed beside the RPM ones"
    );
}
