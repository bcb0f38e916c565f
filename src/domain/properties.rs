//! Property tests of the domain's parsing and ordering rules and of the deployed-version rule.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use proptest::prelude::*;

use crate::domain::deploy::{find_deployed, production_state};
use crate::domain::repository::{
    build_version_views, Badge, Distribution, DistributionHref, Publication, PublicationHref,
    RepoId, RepoVersion, VersionHref, VersionNumber,
};

fn uuid() -> impl Strategy<Value = String> {
    "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
}

fn prefix() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("/pulp/api/v3".to_owned()),
        Just("/pulp/default/api/v3".to_owned()),
        Just("https://h:24817/api/v3".to_owned())
    ]
}

proptest! {
    #[test]
    fn repo_id_parsing_never_panics_and_accepts_only_uuids(raw in ".{0,60}") {
        if let Ok(id) = RepoId::parse(&raw) {
            prop_assert_eq!(id.as_str().len(), 36);
            prop_assert!(!raw.contains('/') && !raw.contains('.'));
        }
    }

    #[test]
    fn every_uuid_is_accepted_lower_cased(id in uuid()) {
        let parsed = RepoId::parse(&id.to_uppercase()).unwrap();
        prop_assert_eq!(parsed.as_str(), id.as_str());
    }

    #[test]
    fn a_version_href_gives_back_its_number_and_repository(id in uuid(), n in any::<u64>(), prefix in prefix()) {
        let href = VersionHref::new(format!("{prefix}/repositories/rpm/rpm/{id}/versions/{n}/"));
        prop_assert_eq!(href.number(), Some(VersionNumber::new(n)));
        let repo = RepoId::parse(&id).unwrap();
        prop_assert!(href.belongs_to(&repo));
        prop_assert_eq!(RepoId::from_href(href.as_str()), Some(repo));
    }

    #[test]
    fn version_href_parsing_never_panics(raw in ".{0,80}") {
        let _ = VersionHref::new(raw).number();
    }

    #[test]
    fn versions_are_always_listed_newest_first(numbers in proptest::collection::vec(proptest::option::of(0u64..1000), 0..40)) {
        let at: DateTime<Utc> = DateTime::UNIX_EPOCH;
        let versions: Vec<RepoVersion> = numbers.iter().map(|n| RepoVersion {
            href: VersionHref::new(match n {
                Some(n) => format!("/pulp/api/v3/repositories/rpm/rpm/01a202de-e818-7629-a483-70ecc3240361/versions/{n}/"),
                None => "/odd/".to_owned(),
            }),
            created: at, package_count: 0, added: 0, removed: 0,
        }).collect();
        let views = build_version_views(&versions, Badge::Verified, None, numbers.len());
        prop_assert_eq!(views.len(), numbers.len());
        let previous: Vec<_> = views.iter().skip(1).map(|v| v.number).collect();
        let named: Vec<_> = views.iter().take(views.len().saturating_sub(1)).map(|v| v.previous).collect();
        prop_assert_eq!(named, previous, "each row names the next older one");
        let keys: Vec<u64> = views.iter().map(|v| v.number.map_or(0, VersionNumber::get)).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn the_deployed_rule_equals_the_spec_loop(
        dists in proptest::collection::vec((proptest::option::of(0usize..6), any::<bool>()), 0..8),
        pubs in proptest::collection::vec((0usize..2, 0u64..9), 6),
    ) {
        let repos = ["01a202de-e818-7629-a483-70ecc3240361", "01a202de-e818-7629-a483-70ecc3240362"];
        let me = RepoId::parse(repos[0]).unwrap();
        let publications: Vec<Publication> = pubs.iter().enumerate().map(|(i, (repo, n))| Publication {
            href: PublicationHref::new(format!("/p/{i}/")),
            repository_version: VersionHref::new(format!("/pulp/api/v3/repositories/rpm/rpm/{}/versions/{n}/", repos[*repo])),
        }).collect();
        let distributions: Vec<Distribution> = dists.iter().enumerate().map(|(i, (p, _))| Distribution {
            href: DistributionHref::new(format!("/d/{i}/")), name: format!("d{i}"), base_path: format!("d{i}"),
            publication: p.map(|p| PublicationHref::new(format!("/p/{p}/"))), revision: None,
        }).collect();
        // Some publications cannot be fetched: they are absent from the map.
        let fetchable: HashMap<PublicationHref, Publication> = publications.iter().enumerate()
            .filter(|(i, _)| dists.get(*i).is_none_or(|(_, ok)| *ok))
            .map(|(_, p)| (p.href.clone(), p.clone())).collect();
        // The spec, literally: for each distribution with a publication, fetch it; skip on failure;
        // the first whose version address contains /repositories/rpm/rpm/<uuid>/versions/ decides.
        let mut expected = None;
        for d in &distributions {
            let Some(href) = &d.publication else { continue };
            let Some(p) = fetchable.get(href) else { continue };
            if p.repository_version.as_str().contains(&format!("/repositories/rpm/rpm/{}/versions/", repos[0])) {
                expected = p.repository_version.number();
                break;
            }
        }
        let found = find_deployed(&me, &distributions, &fetchable).map(|d| d.number);
        prop_assert_eq!(found, expected);
        let state = production_state(&me, None, &distributions, &fetchable);
        prop_assert_eq!(state.deployed.map(|d| d.number), expected);
    }
}
