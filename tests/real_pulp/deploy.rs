//! A real deploy through the client on `rc-deploy`: publish v4, point `rc-deploy-prod`
//! at it, read the result back through Pulp's API (not through the client), restore.

use repo_console::domain::repository::{DistributionHref, PublicationHref, VersionNumber};
use repo_console::ports::{RepositoryManager, WriteOutcome};

use super::support::{exclusive, repo_named, required_pulp, TestPulp};

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_deploy_through_the_client_moves_production_to_version_4() {
    let pulp = required_pulp();
    let _guard = exclusive("rc-deploy").await;
    let client = pulp.client();
    let id = repo_named(&client, "rc-deploy").await;
    let (_, found) = pulp.raw(
        "GET",
        "distributions/rpm/rpm/?name=rc-deploy-prod&fields=pulp_href,publication",
        None,
    );
    let prod = DistributionHref::new(
        found["results"][0]["pulp_href"]
            .as_str()
            .expect("rc-deploy-prod exists"),
    );
    let before = PublicationHref::new(
        found["results"][0]["publication"]
            .as_str()
            .expect("prod serves a publication"),
    );

    let v4 = client
        .get_repo(&id)
        .await
        .expect("repo")
        .version_href(VersionNumber::new(4));
    let WriteOutcome::Applied(publication) = client.publish(&v4).await else {
        panic!("publishing v4 is applied");
    };
    assert_eq!(
        client.point_distribution(&prod, &publication).await,
        WriteOutcome::Applied(()),
        "repoint prod"
    );

    let serves = served_version(&pulp, &prod);
    assert_eq!(
        client.point_distribution(&prod, &before).await,
        WriteOutcome::Applied(()),
        "restore"
    );

    assert!(
        serves.contains(&format!("/repositories/rpm/rpm/{id}/versions/4/")),
        "prod serves {serves}"
    );
    assert_eq!(
        pulp.raw_ok("GET", prod.as_str(), None)["publication"].as_str(),
        Some(before.as_str()),
        "restored"
    );
}

/// The repository version the distribution serves, read with raw API calls.
fn served_version(pulp: &TestPulp, dist: &DistributionHref) -> String {
    let dist = pulp.raw_ok("GET", dist.as_str(), None);
    let publication = dist["publication"].as_str().expect("a publication");
    pulp.raw_ok("GET", publication, None)["repository_version"]
        .as_str()
        .expect("a version")
        .to_owned()
}
