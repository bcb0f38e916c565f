//! The badge and the deploy gate under `[verification] unsigned_metadata`: metadata clients do
//! not check (repo_gpgcheck off) is verified only where the policy allows it, per environment;
//! repo_gpgcheck on without a signing service is refused whatever the policy (clients refuse
//! it), and each refusal names the failing condition and its fix.

use std::collections::BTreeMap;

use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::metadata::MetadataPolicy;
use repo_console::domain::policy::{Allowed, Policy};
use repo_console::domain::repository::{RepoVerification, UnsignedMetadata, VersionNumber};

use crate::helpers::*;
use crate::verified::verified;

fn allowing(default: UnsignedMetadata) -> Policy {
    Policy::new(BTreeMap::new(), Allowed::Everyone)
        .with_metadata(MetadataPolicy::new(default, BTreeMap::new()))
}

async fn detail(
    app: &TestApp,
    id: &repo_console::domain::repository::RepoId,
) -> (String, String, String) {
    let html = app.get(&format!("/repos/{id}/versions")).await.html();
    let badge = select(&html, "#verification [data-badge]");
    let metadata = select(&html, "#verification [data-check=\"metadata\"]");
    (
        attr(&badge[0], "data-badge").to_owned(),
        attr(&metadata[0], "data-ok").to_owned(),
        attr(&metadata[0], "data-metadata").to_owned(),
    )
}

#[tokio::test]
async fn unchecked_metadata_is_verified_and_deployed_where_the_policy_allows_it() {
    let app = fixture_app()
        .policy(allowing(UnsignedMetadata::Allow))
        .spawn()
        .await;
    let unchecked = app.memory.add_repo(
        "unchecked",
        RepoVerification {
            repo_gpgcheck: Some(false),
            metadata_signed: Some(false),
            ..verified()
        },
    );
    app.memory.add_version(&unchecked, &["u-1"], &[]);
    app.memory.add_version(&unchecked, &["u-2"], &[]);
    let live = app.memory.publish(&unchecked, VersionNumber::new(1));
    app.memory.add_distribution("unchecked-prod", Some(&live));
    assert_eq!(
        detail(&app, &unchecked).await,
        ("verified".into(), "true".into(), "unchecked-allowed".into())
    );
    let html = app
        .get(&format!("/repos/{unchecked}/versions"))
        .await
        .html();
    assert!(select(&html, "[data-warning=unsigned-metadata]").is_empty());
    let reply = app.deploy(&unchecked, "2", "unchecked").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(app.production_version("unchecked-prod"), Some(2));
}

#[tokio::test]
async fn unchecked_metadata_is_refused_under_the_default_policy_naming_the_fix() {
    let app = spawn_app().await;
    let unchecked = app.memory.add_repo(
        "unchecked",
        RepoVerification {
            repo_gpgcheck: Some(false),
            metadata_signed: Some(false),
            ..verified()
        },
    );
    app.memory.add_version(&unchecked, &["u-1"], &[]);
    app.memory.add_version(&unchecked, &["u-2"], &[]);
    let live = app.memory.publish(&unchecked, VersionNumber::new(1));
    app.memory.add_distribution("unchecked-prod", Some(&live));
    assert_eq!(
        detail(&app, &unchecked).await,
        ("partial".into(), "false".into(), "unchecked-refused".into())
    );
    let html = app
        .get(&format!("/repos/{unchecked}/versions"))
        .await
        .html();
    let fix = select(&html, "[data-fix=\"metadata\"]");
    assert!(
        fix[0]
            .text()
            .collect::<String>()
            .contains("unsigned_metadata"),
        "the fix names the policy's key"
    );
    let reply = app.deploy(&unchecked, "2", "unchecked").await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(reply.body.contains("the policy refuses unsigned metadata"));
    assert_eq!(app.production_version("unchecked-prod"), Some(1));
}

#[tokio::test]
async fn repo_gpgcheck_without_a_signing_service_is_refused_whatever_the_policy() {
    let app = fixture_app()
        .policy(allowing(UnsignedMetadata::Allow))
        .spawn()
        .await;
    let refused = app.memory.add_repo(
        "refused",
        RepoVerification {
            repo_gpgcheck: Some(true),
            metadata_signed: Some(false),
            ..verified()
        },
    );
    app.memory.add_version(&refused, &["r-1"], &[]);
    app.memory.add_version(&refused, &["r-2"], &[]);
    let live = app.memory.publish(&refused, VersionNumber::new(1));
    app.memory.add_distribution("refused-prod", Some(&live));
    assert_eq!(
        detail(&app, &refused).await,
        (
            "partial".into(),
            "false".into(),
            "refused-by-clients".into()
        )
    );
    let html = app.get(&format!("/repos/{refused}/versions")).await.html();
    assert_eq!(select(&html, "[data-warning=unsigned-metadata]").len(), 1);
    let reply = app.deploy(&refused, "2", "refused").await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(reply.body.contains("clients refuse"), "{}", reply.body);
    assert!(reply.body.contains("metadata_signing_service"));
    assert_eq!(app.production_version("refused-prod"), Some(1));
}

#[tokio::test]
async fn production_of_its_own_refusing_wins_over_an_allowing_default() {
    let production = EnvironmentName::production();
    let app = fixture_app()
        .policy(
            Policy::new(BTreeMap::new(), Allowed::Everyone).with_metadata(MetadataPolicy::new(
                UnsignedMetadata::Allow,
                BTreeMap::from([(production, UnsignedMetadata::Refuse)]),
            )),
        )
        .spawn()
        .await;
    assert_eq!(
        detail(&app, &app.fixture.partial).await,
        ("partial".into(), "false".into(), "unchecked-refused".into())
    );
}
