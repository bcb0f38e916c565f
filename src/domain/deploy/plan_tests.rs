use std::collections::HashMap;

use chrono::DateTime;

use super::*;
use crate::domain::deploy::Intent;
use crate::domain::environment::{EnvironmentName, PromotionCheck};
use crate::domain::repository::{
    ChecksumType, DistributionHref, RepoVerification, UnsignedMetadata, VersionHref,
};

const ID: &str = "01a202de-e818-7629-a483-70ecc3240361";
const OTHER: &str = "01a202de-e818-7629-a483-70ecc3240399";

fn repo_id() -> RepoId {
    RepoId::parse(ID).unwrap()
}

fn vhref(repo: &str, n: u64) -> VersionHref {
    VersionHref::new(format!(
        "/pulp/api/v3/repositories/rpm/rpm/{repo}/versions/{n}/"
    ))
}

fn dist(name: &str, publication: Option<&str>) -> Distribution {
    Distribution {
        href: DistributionHref::new(format!("/pulp/api/v3/distributions/rpm/rpm/{name}/")),
        name: name.to_owned(),
        base_path: name.to_owned(),
        publication: publication.map(PublicationHref::new),
        revision: None,
    }
}

fn publication(href: &str, repo: &str, n: u64) -> Publication {
    Publication {
        href: PublicationHref::new(href),
        repository_version: vhref(repo, n),
    }
}

fn verified_repo() -> Repository {
    Repository {
        id: repo_id(),
        href: format!("/pulp/api/v3/repositories/rpm/rpm/{ID}/"),
        name: Some("base-os".into()),
        verification: RepoVerification {
            gpgcheck: Some(true),
            repo_gpgcheck: Some(true),
            checksum: Some(ChecksumType::Sha256),
            metadata_signed: Some(true),
            ..Default::default()
        },
        latest_version: None,
        remote: None,
        retain_versions: None,
    }
}

fn version(n: u64, packages: u64) -> RepoVersion {
    RepoVersion {
        href: vhref(ID, n),
        created: DateTime::parse_from_rfc3339("2026-11-01T10:00:00Z")
            .unwrap()
            .into(),
        package_count: packages,
        added: 0,
        removed: 0,
    }
}

fn pubs(list: Vec<Publication>) -> HashMap<PublicationHref, Publication> {
    list.into_iter().map(|p| (p.href.clone(), p)).collect()
}

#[test]
fn the_first_distribution_serving_a_version_of_the_repo_gives_the_deployed_number() {
    let pubs = pubs(vec![
        publication("/p/other/", OTHER, 9),
        publication("/p/a/", ID, 3),
        publication("/p/b/", ID, 5),
    ]);
    let dists = [
        dist("staging", None),
        dist("other", Some("/p/other/")),
        dist("prod", Some("/p/a/")),
        dist("prod2", Some("/p/b/")),
    ];
    let found = find_deployed(&repo_id(), &dists, &pubs).unwrap();
    assert_eq!(found.number, VersionNumber::new(3));
    assert_eq!(found.distribution.name, "prod");
}

#[test]
fn a_distribution_whose_publication_cannot_be_fetched_is_skipped() {
    let pubs = pubs(vec![publication("/p/b/", ID, 5)]);
    let dists = [
        dist("broken", Some("/p/missing/")),
        dist("prod", Some("/p/b/")),
    ];
    let found = find_deployed(&repo_id(), &dists, &pubs).unwrap();
    assert_eq!(found.number, VersionNumber::new(5));
}

#[test]
fn nothing_is_deployed_when_no_distribution_serves_the_repo() {
    let pubs = pubs(vec![publication("/p/other/", OTHER, 1)]);
    let dists = [dist("staging", None), dist("other", Some("/p/other/"))];
    assert_eq!(find_deployed(&repo_id(), &dists, &pubs), None);
}

#[test]
fn a_configured_distribution_wins_and_production_is_what_it_serves() {
    let pubs = pubs(vec![
        publication("/p/a/", ID, 3),
        publication("/p/b/", ID, 5),
    ]);
    let dists = [dist("staging", Some("/p/b/")), dist("live", Some("/p/a/"))];
    let state = production_state(&repo_id(), Some("live"), &dists, &pubs);
    assert_eq!(
        state.target,
        Ok(ProductionTarget::Configured(dists[1].clone()))
    );
    assert_eq!(state.deployed.unwrap().number, VersionNumber::new(3));
}

#[test]
fn a_configured_distribution_serving_nothing_means_nothing_deployed() {
    let pubs = pubs(vec![publication("/p/b/", ID, 5)]);
    let dists = [dist("staging", Some("/p/b/")), dist("live", None)];
    let state = production_state(&repo_id(), Some("live"), &dists, &pubs);
    assert!(state.target.is_ok());
    assert_eq!(state.deployed, None);
}

#[test]
fn a_configured_distribution_that_does_not_exist_is_a_refusal() {
    let state = production_state(
        &repo_id(),
        Some("gone"),
        &[dist("prod", None)],
        &HashMap::new(),
    );
    let err = state.target.unwrap_err();
    assert_eq!(err, Refusal::ConfiguredDistributionMissing("gone".into()));
    assert!(err.to_string().contains("[production]"));
}

#[test]
fn without_configuration_the_serving_distribution_is_production() {
    let pubs = pubs(vec![publication("/p/a/", ID, 3)]);
    let dists = [dist("prod", Some("/p/a/"))];
    let state = production_state(&repo_id(), None, &dists, &pubs);
    assert_eq!(
        state.target,
        Ok(ProductionTarget::Serving(dists[0].clone()))
    );
}

#[test]
fn without_configuration_or_serving_distribution_deploy_is_refused() {
    let state = production_state(&repo_id(), None, &[dist("x", None)], &HashMap::new());
    assert_eq!(state.target, Err(Refusal::NoProductionDistribution));
}

fn facts(deployed: Option<u64>) -> DeployFacts {
    let prod = dist("prod", Some("/p/a/"));
    let deployed = deployed.map(|n| Deployed {
        number: VersionNumber::new(n),
        distribution: prod.clone(),
        publication: PublicationHref::new("/p/a/"),
    });
    DeployFacts {
        repo: verified_repo(),
        versions: vec![version(1, 10), version(2, 12), version(4, 9)],
        environment: EnvironmentName::production(),
        production: match &deployed {
            Some(d) => Ok(ProductionTarget::Serving(d.distribution.clone())),
            None => Err(Refusal::NoProductionDistribution),
        },
        deployed,
        order: PromotionCheck::FirstEnvironment,
        previous: None,
        unsigned_metadata: UnsignedMetadata::Refuse,
    }
}

#[test]
fn a_verified_existing_not_deployed_version_is_planned_with_its_net_change() {
    let plan = plan_deploy(&facts(Some(2)), VersionNumber::new(4)).unwrap();
    assert_eq!(plan.current, Some(VersionNumber::new(2)));
    assert_eq!(plan.net_change, -3);
    assert_eq!(plan.distribution.name, "prod");
    assert_eq!(plan.confirmation_text(), "base-os");
}

#[test]
fn an_unverified_repository_is_refused_first() {
    let mut f = facts(Some(2));
    f.repo.verification.repo_gpgcheck = Some(false);
    assert!(matches!(
        plan_deploy(&f, VersionNumber::new(99)),
        Err(Refusal::NotVerified(_))
    ));
}

#[test]
fn unchecked_metadata_is_deployed_only_where_the_policy_allows_it() {
    let mut f = facts(Some(2));
    f.repo.verification.repo_gpgcheck = Some(false);
    f.repo.verification.metadata_signed = Some(false);
    let Err(Refusal::NotVerified(why)) = plan_deploy(&f, VersionNumber::new(4)) else {
        panic!("refused under refuse");
    };
    assert!(
        why.contains("the policy refuses unsigned metadata"),
        "{why}"
    );
    f.unsigned_metadata = UnsignedMetadata::Allow;
    assert!(plan_deploy(&f, VersionNumber::new(4)).is_ok());
    f.repo.verification.repo_gpgcheck = Some(true);
    let Err(Refusal::NotVerified(why)) = plan_deploy(&f, VersionNumber::new(4)) else {
        panic!("clients refuse it, whatever the policy");
    };
    assert!(why.contains("clients refuse"), "{why}");
}

#[test]
fn an_unknown_version_is_refused() {
    assert_eq!(
        plan_deploy(&facts(Some(2)), VersionNumber::new(3)),
        Err(Refusal::UnknownVersion(3))
    );
}

#[test]
fn the_deployed_version_is_refused() {
    assert_eq!(
        plan_deploy(&facts(Some(2)), VersionNumber::new(2)),
        Err(Refusal::AlreadyDeployed {
            version: 2,
            environment: EnvironmentName::production()
        })
    );
}

#[test]
fn without_production_distribution_the_plan_is_refused() {
    assert_eq!(
        plan_deploy(&facts(None), VersionNumber::new(2)),
        Err(Refusal::NoProductionDistribution)
    );
}

#[test]
fn confirmation_must_match_exactly() {
    let plan = plan_deploy(&facts(Some(2)), VersionNumber::new(4)).unwrap();
    assert_eq!(check_confirmation(&plan, "base-os"), Ok(()));
    for wrong in ["", "base", "base-os ", " base-os", "BASE-OS", "base-os2"] {
        assert_eq!(
            check_confirmation(&plan, wrong),
            Err(Refusal::ConfirmationMismatch),
            "{wrong:?}"
        );
    }
}

#[test]
fn a_deploy_is_refused_when_production_moved_since_the_preview() {
    let v = VersionNumber::new;
    let prod = EnvironmentName::production();
    assert_eq!(
        check_unmoved(&prod, Some(v(2)), SeenLive::Version(v(2))),
        Ok(())
    );
    assert_eq!(check_unmoved(&prod, None, SeenLive::Nothing), Ok(()));
    assert_eq!(check_unmoved(&prod, Some(v(7)), SeenLive::NotSent), Ok(()));
    let moved = check_unmoved(&prod, Some(v(3)), SeenLive::Version(v(2))).unwrap_err();
    assert_eq!(
        moved,
        Refusal::ProductionMoved {
            environment: prod.clone(),
            seen: "v2".into(),
            now: "v3".into()
        }
    );
    assert!(matches!(
        check_unmoved(&prod, Some(v(3)), SeenLive::Nothing),
        Err(Refusal::ProductionMoved { .. })
    ));
    assert!(matches!(
        check_unmoved(&prod, None, SeenLive::Version(v(1))),
        Err(Refusal::ProductionMoved { .. })
    ));
}

#[test]
fn a_production_distribution_gone_since_the_preview_is_named_as_such() {
    let request = DeployRequest {
        target: VersionNumber::new(4),
        environment: EnvironmentName::production(),
        confirm: "base-os".into(),
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    let refusal = check_request(&facts(None), &request).unwrap_err();
    assert!(
        matches!(&refusal, Refusal::ProductionMoved { seen, now, .. } if seen == "v2" && now.contains("deleted")),
        "{refusal}"
    );
    let unsent = DeployRequest {
        seen_live: SeenLive::NotSent,
        ..request
    };
    assert_eq!(
        check_request(&facts(None), &unsent),
        Err(Refusal::NoProductionDistribution)
    );
}

#[test]
fn a_request_is_checked_in_order_gate_moved_then_confirmation() {
    let request = DeployRequest {
        target: VersionNumber::new(4),
        environment: EnvironmentName::production(),
        confirm: "wrong".into(),
        seen_live: SeenLive::Version(VersionNumber::new(1)),
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    assert!(matches!(
        check_request(&facts(Some(2)), &request),
        Err(Refusal::ProductionMoved { .. })
    ));
    let request = DeployRequest {
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        ..request
    };
    assert_eq!(
        check_request(&facts(Some(2)), &request),
        Err(Refusal::ConfirmationMismatch)
    );
    let request = DeployRequest {
        confirm: "base-os".into(),
        ..request
    };
    assert_eq!(
        check_request(&facts(Some(2)), &request)
            .unwrap()
            .target_number(),
        VersionNumber::new(4)
    );
}

#[test]
fn the_apis_confirmation_is_the_version_it_expects_which_it_must_name() {
    let request = DeployRequest {
        target: VersionNumber::new(4),
        environment: EnvironmentName::production(),
        confirm: Confirmation::ExpectedCurrent,
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    assert_eq!(
        check_request(&facts(Some(2)), &request),
        Err(Refusal::ExpectedCurrentMissing)
    );
    let stale = DeployRequest {
        seen_live: SeenLive::Version(VersionNumber::new(1)),
        ..request.clone()
    };
    assert!(matches!(
        check_request(&facts(Some(2)), &stale),
        Err(Refusal::ProductionMoved { .. })
    ));
    let right = DeployRequest {
        seen_live: SeenLive::Version(VersionNumber::new(2)),
        ..request
    };
    assert!(check_request(&facts(Some(2)), &right).is_ok());
}

#[test]
fn out_of_order_is_refused_only_where_the_environment_requires_the_previous_one() {
    let staging = EnvironmentName::parse("staging").unwrap();
    let warned = DeployFacts {
        order: PromotionCheck::OutOfOrder {
            skips: staging.clone(),
            refused: false,
        },
        ..facts(Some(2))
    };
    let plan = plan_deploy(&warned, VersionNumber::new(4)).expect("a warning only");
    assert!(matches!(
        plan.order,
        PromotionCheck::OutOfOrder { refused: false, .. }
    ));
    let refused = DeployFacts {
        order: PromotionCheck::OutOfOrder {
            skips: staging.clone(),
            refused: true,
        },
        ..facts(Some(2))
    };
    let refusal = plan_deploy(&refused, VersionNumber::new(4)).unwrap_err();
    assert_eq!(
        refusal,
        Refusal::OutOfOrder {
            version: 4,
            environment: EnvironmentName::production(),
            skips: staging,
        }
    );
    assert!(
        refusal.to_string().contains("Deploy v4 to staging first"),
        "{refusal}"
    );
}
