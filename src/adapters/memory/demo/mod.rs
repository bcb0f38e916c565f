//! The demo upstream: what the console shows when no Pulp is configured.
//! Realistic names and sizes, built deterministically (same data every start): the packages
//! and their updates (`packages`), the advisories they carry (`errata`).

mod errata;
mod packages;

use std::collections::HashMap;
use std::time::Duration;

use chrono::{DateTime, Duration as Days, Utc};

use crate::adapters::memory::content::ContentChange;
use crate::adapters::memory::demo::errata::{errata_of, upload_errata};
use crate::adapters::memory::demo::packages::{Lcg, Packages};
use crate::adapters::memory::in_memory::{InMemoryPulp, MemoryOptions, SyncScript};
use crate::domain::content::kind::ContentType;
use crate::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};
use crate::domain::repository::{ChecksumType, RepoVerification, VersionNumber};

fn verified() -> RepoVerification {
    RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(true),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(true),
        ..Default::default()
    }
}

/// The demo's production distributions, as an operator would write them in `[production]`:
/// used only with the demo upstream, under whatever `[production]` configures.
pub fn production() -> HashMap<String, String> {
    HashMap::from([(
        "epel9-appstream".to_owned(),
        "epel9-appstream-prod".to_owned(),
    )])
}

/// The demo's environments, as an operator would configure them: testing, staging and
/// production, each naming its distributions `<repository>-<environment>` (`-prod` for
/// production). Used only with the demo upstream when `[environments]` is not configured.
pub fn environments() -> EnvironmentPath {
    let environment = |name: &str, pattern: &str| Environment {
        name: EnvironmentName::parse(name).expect("a valid name"),
        naming: DistributionNaming::new(
            Some(NamePattern::parse(pattern).expect("a valid pattern")),
            HashMap::new(),
        ),
        requires_previous: false,
    };
    EnvironmentPath::new(vec![
        environment("testing", "{repo}-testing"),
        environment("staging", "{repo}-staging"),
        environment("production", "{repo}-prod"),
    ])
    .expect("a valid path")
}

/// Builds the demo: six repositories (five RPM, one Debian) and their distributions.
/// `options` controls how long tasks take (the demo uses a visible delay).
pub fn demo_pulp(options: MemoryOptions, now: DateTime<Utc>) -> InMemoryPulp {
    let pulp = InMemoryPulp::new(options);
    seed_baseos(&pulp, now);
    seed_appstream(&pulp, now);
    seed_rhel_appstream(&pulp, now);
    seed_internal_tools(&pulp, now);
    seed_vendor(&pulp, now);
    seed_debian(&pulp, now);
    pulp
}

/// rhel9-baseos: verified, 46 versions with gaps, about two hundred packages, each updated
/// in upgrade order (a newer release of the same version, as RHEL ships fixes); production
/// serves an older one.
fn seed_baseos(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(120);
    let id = pulp.add_repo_at("rhel9-baseos", verified(), start);
    let mut packages = Packages::new(Lcg(9));
    upload_errata(pulp);
    for step in 1..=46u64 {
        let change = packages.step(step);
        let at = start + Days::hours(step as i64 * 60);
        let adds: Vec<&str> = change.add.iter().map(String::as_str).collect();
        let removes: Vec<&str> = change.remove.iter().map(String::as_str).collect();
        let (add_advisories, remove_advisories) = errata_of(step);
        let change = ContentChange {
            add: &adds,
            remove: &removes,
            add_advisories: &add_advisories,
            remove_advisories: &remove_advisories,
        };
        pulp.add_content_version_at(&id, &change, at);
    }
    for gap in [5, 6, 17, 29, 30, 31] {
        pulp.delete_version(&id, VersionNumber::new(gap));
    }
    let live_publication = pulp.publish(&id, VersionNumber::new(38));
    pulp.publish(&id, VersionNumber::new(22));
    pulp.add_distribution("rhel9-baseos-prod", Some(&live_publication));
    // Promotion under way: testing has the newest, staging one before it.
    let staging = pulp.publish(&id, VersionNumber::new(44));
    let testing = pulp.publish(&id, VersionNumber::new(46));
    pulp.add_distribution("rhel9-baseos-staging", Some(&staging));
    pulp.add_distribution("rhel9-baseos-testing", Some(&testing));
    pulp.add_repo_distribution("rhel9-baseos-latest", &id);
    // A sync brings the next updates, in upgrade order too.
    let next = packages.step(47);
    pulp.add_remote(
        &id,
        SyncScript::Succeeds {
            duration: Duration::from_secs(10),
            add: next.add,
            remove: next.remove,
        },
    );
}

/// epel9-appstream: never deployed to production; its production distribution exists but
/// serves nothing yet (named by [`production`]); testing and staging serve it already. Its
/// metadata is signed and checked by clients: verified.
fn seed_appstream(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(30);
    let id = pulp.add_repo_at("epel9-appstream", verified(), start);
    let mut rng = Lcg(41);
    for step in 1..=8i64 {
        let add: Vec<String> = (0..40 + rng.next(30))
            .map(|i| format!("app-{step}-{i}-1.0-1.el9.noarch"))
            .collect();
        let adds: Vec<&str> = add.iter().map(String::as_str).collect();
        pulp.add_version_at(&id, &adds, &[], start + Days::days(step * 3));
    }
    pulp.add_distribution("epel9-appstream-prod", None);
    // Testing and staging serve it already (a member of the release `rhel9`).
    let testing = pulp.publish(&id, VersionNumber::new(8));
    let staging = pulp.publish(&id, VersionNumber::new(7));
    pulp.add_distribution("epel9-appstream-testing", Some(&testing));
    pulp.add_distribution("epel9-appstream-staging", Some(&staging));
}

/// rhel9-appstream: verified, six versions of a few application streams, each an upgrade of
/// the one before; production serves v4, staging v5, testing v6 (a member of the release
/// `rhel9`, with `rhel9-baseos` and `epel9-appstream`).
fn seed_rhel_appstream(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(40);
    let id = pulp.add_repo_at("rhel9-appstream", verified(), start);
    const STREAMS: [(&str, &str); 4] = [
        ("httpd", "2.4.62"),
        ("nodejs", "20.18"),
        ("python3.12", "3.12.9"),
        ("postgresql", "16.8"),
    ];
    let build = |step: i64| -> Vec<String> {
        STREAMS
            .iter()
            .map(|(name, version)| format!("{name}-{version}-{step}.el9.x86_64"))
            .collect()
    };
    let mut live: Vec<String> = Vec::new();
    for step in 1..=6i64 {
        let add = build(step);
        let adds: Vec<&str> = add.iter().map(String::as_str).collect();
        let removes: Vec<&str> = live.iter().map(String::as_str).collect();
        pulp.add_version_at(&id, &adds, &removes, start + Days::days(step * 5));
        live = add;
    }
    for (environment, version) in [("prod", 4), ("staging", 5), ("testing", 6)] {
        let publication = pulp.publish(&id, VersionNumber::new(version));
        pulp.add_distribution(
            &format!("rhel9-appstream-{environment}"),
            Some(&publication),
        );
    }
}

/// internal-tools: package signatures are not checked (gpgcheck off), and `repo_gpgcheck` is on
/// without a metadata signing service, so clients would refuse its metadata: never verified,
/// its deploy is refused, and the console warns.
fn seed_internal_tools(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(12);
    let settings = RepoVerification {
        gpgcheck: Some(false),
        repo_gpgcheck: Some(true),
        checksum: None,
        metadata_signed: Some(false),
        ..Default::default()
    };
    let id = pulp.add_repo_at("internal-tools", settings, start);
    let mut live: Vec<String> = Vec::new();
    for step in 1..=5i64 {
        let add: Vec<String> = (0..6)
            .map(|i| format!("tool{i}-0.{step}-1.noarch"))
            .collect();
        let adds: Vec<&str> = add.iter().map(String::as_str).collect();
        let removes: Vec<&str> = live.iter().map(String::as_str).collect();
        pulp.add_version_at(&id, &adds, &removes, start + Days::days(step * 2));
        live = add;
    }
    let reason =
        "Cannot connect to host tools.corp.example:443 ssl:default [Name or service not known]";
    pulp.add_remote(
        &id,
        SyncScript::Fails {
            duration: Duration::from_secs(3),
            reason: reason.into(),
        },
    );
}

/// vendor-drivers: a vendor without a signing service: package signatures checked, its
/// metadata unsigned and not checked by clients (repo_gpgcheck off), so it is verified only
/// where the policy allows unsigned metadata (`[verification] unsigned_metadata = "allow"`).
fn seed_vendor(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(60);
    let settings = RepoVerification {
        gpgcheck: Some(true),
        repo_gpgcheck: Some(false),
        checksum: Some(ChecksumType::Sha256),
        metadata_signed: Some(false),
        ..Default::default()
    };
    let id = pulp.add_repo_at("vendor-drivers", settings, start);
    for step in 1..=3i64 {
        let add: Vec<String> = (0..12)
            .map(|i| format!("kmod-vendor{i}-{step}.0-1.el9.x86_64"))
            .collect();
        let adds: Vec<&str> = add.iter().map(String::as_str).collect();
        pulp.add_version_at(&id, &adds, &[], start + Days::days(step * 15));
    }
    let publication = pulp.publish(&id, VersionNumber::new(2));
    pulp.add_distribution("vendor-drivers-prod", Some(&publication));
}

/// trixie-security: a Debian repository (pulp_deb's addresses), its `Release` files signed:
/// verified. Its updates show Debian's version order on the confirm step (`+deb13u1` above
/// the version it patches, `~rc1` below the release, an epoch above any version without one);
/// production serves v3, staging v4 and testing the newest.
fn seed_debian(pulp: &InMemoryPulp, now: DateTime<Utc>) {
    let start = now - Days::days(40);
    let signed = RepoVerification {
        content_type: ContentType::Deb,
        metadata_signed: Some(true),
        ..Default::default()
    };
    let id = pulp.add_repo_at("trixie-security", signed, start);
    let steps: [(&[&str], &[&str]); 5] = [
        (
            &[
                "nginx_1.22.1-9_amd64",
                "curl_7.88.1-10_amd64",
                "openssl_3.0.11-1~deb13u1_amd64",
                "tzdata_2024a-0+deb13u1_all",
                "libgnutls30_3.7.9-2_amd64",
            ],
            &[],
        ),
        (&["curl_7.88.1-10+deb13u5_amd64"], &["curl_7.88.1-10_amd64"]),
        (
            &[
                "openssl_3.0.13-1~deb13u1_amd64",
                "nginx_1.22.1-9+deb13u1_amd64",
            ],
            &["openssl_3.0.11-1~deb13u1_amd64", "nginx_1.22.1-9_amd64"],
        ),
        (
            &[
                "libgnutls30_3.7.9-2+deb13u3_amd64",
                "tzdata_2024b-0+deb13u1_all",
            ],
            &["libgnutls30_3.7.9-2_amd64", "tzdata_2024a-0+deb13u1_all"],
        ),
        (
            &["nginx_1:1.24.0~rc1-1_amd64"],
            &["nginx_1.22.1-9+deb13u1_amd64"],
        ),
    ];
    for (step, (add, remove)) in steps.iter().enumerate() {
        let at = start + Days::days(step as i64 * 7 + 1);
        pulp.add_version_at(&id, add, remove, at);
    }
    let production = pulp.publish(&id, VersionNumber::new(3));
    let staging = pulp.publish(&id, VersionNumber::new(4));
    let testing = pulp.publish(&id, VersionNumber::new(5));
    pulp.add_deb_distribution("trixie-security-prod", Some(&production));
    pulp.add_deb_distribution("trixie-security-staging", Some(&staging));
    pulp.add_deb_distribution("trixie-security-testing", Some(&testing));
}
