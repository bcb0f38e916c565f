//! The environment path's rules, by example and as properties.

use std::collections::{BTreeSet, HashMap};

use proptest::prelude::*;

use super::*;

fn name(text: &str) -> EnvironmentName {
    EnvironmentName::parse(text).unwrap()
}

fn pattern(text: &str) -> Option<NamePattern> {
    Some(NamePattern::parse(text).unwrap())
}

fn env(text: &str, requires_previous: bool) -> Environment {
    Environment {
        name: name(text),
        naming: DistributionNaming::new(pattern(&format!("{{repo}}-{text}")), []),
        requires_previous,
    }
}

/// testing, staging (rhel9-baseos named explicitly), production (requires staging).
fn issue_path() -> EnvironmentPath {
    let mut staging = env("staging", false);
    staging.naming = DistributionNaming::new(
        pattern("{repo}-staging"),
        [("rhel9-baseos".to_owned(), "baseos-stage".to_owned())],
    );
    EnvironmentPath::new(vec![
        env("testing", false),
        staging,
        env("production", true),
    ])
    .unwrap()
}

fn versions(numbers: &[u64]) -> BTreeSet<VersionNumber> {
    numbers.iter().copied().map(VersionNumber::new).collect()
}

#[test]
fn a_name_is_lowercase_letters_digits_dashes_and_underscores() {
    for good in ["production", "qa-2", "pre_prod", "x", &"a".repeat(32)] {
        assert_eq!(name(good).as_str(), good);
    }
    let parse = EnvironmentName::parse;
    assert_eq!(parse(""), Err(InvalidEnvironmentName::Empty));
    assert_eq!(parse(&"a".repeat(33)), Err(InvalidEnvironmentName::TooLong));
    assert_eq!(
        parse("Staging"),
        Err(InvalidEnvironmentName::Character('S'))
    );
    assert_eq!(parse("a b"), Err(InvalidEnvironmentName::Character(' ')));
    assert_eq!(parse("prod/x"), Err(InvalidEnvironmentName::Character('/')));
    assert_eq!(parse("é"), Err(InvalidEnvironmentName::Character('é')));
    assert_eq!(EnvironmentName::production().to_string(), "production");
}

#[test]
fn a_name_is_serialized_as_a_string_and_checked_when_read() {
    let json = serde_json::to_string(&name("staging")).unwrap();
    assert_eq!(json, "\"staging\"");
    let back: EnvironmentName = serde_json::from_str(&json).unwrap();
    assert_eq!(back, name("staging"));
    assert!(serde_json::from_str::<EnvironmentName>("\"Staging\"").is_err());
}

#[test]
fn a_pattern_must_hold_repo_and_no_other_placeholder() {
    assert_eq!(
        NamePattern::parse("{repo}-prod").unwrap().apply("epel9"),
        "epel9-prod"
    );
    assert_eq!(
        NamePattern::parse("{repo}/{repo}").unwrap().apply("a"),
        "a/a",
        "every {{repo}} is replaced"
    );
    assert!(matches!(
        NamePattern::parse("staging"),
        Err(InvalidPattern::NoPlaceholder(_))
    ));
    assert!(matches!(
        NamePattern::parse("{Repo}-x"),
        Err(InvalidPattern::NoPlaceholder(_))
    ));
    assert!(matches!(
        NamePattern::parse("{repo}-{env}"),
        Err(InvalidPattern::OtherPlaceholder(_))
    ));
    let shown = NamePattern::parse("stage").unwrap_err().to_string();
    assert!(shown.contains("{repo}"), "{shown}");
}

#[test]
fn an_explicit_name_wins_over_the_pattern() {
    let path = issue_path();
    let staging = path.find("staging").unwrap();
    assert_eq!(
        staging.distribution_for("rhel9-baseos").as_deref(),
        Some("baseos-stage")
    );
    assert_eq!(
        staging.distribution_for("epel9").as_deref(),
        Some("epel9-staging")
    );
}

#[test]
fn without_a_pattern_an_unnamed_repository_has_no_distribution() {
    let map = HashMap::from([("base-os".to_owned(), "base-os-live".to_owned())]);
    let path = EnvironmentPath::production_only(map);
    assert!(path.is_single());
    let production = path.last();
    assert_eq!(production.name, EnvironmentName::production());
    assert!(!production.requires_previous);
    assert_eq!(
        production.distribution_for("base-os").as_deref(),
        Some("base-os-live")
    );
    assert_eq!(
        production.distribution_for("other"),
        None,
        "left to detection"
    );
    let empty = EnvironmentPath::production_only(HashMap::new());
    assert!(empty.last().naming.is_empty());
}

#[test]
fn a_path_is_navigated_in_order() {
    let path = issue_path();
    let names: Vec<&str> = path.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["testing", "staging", "production"]);
    assert_eq!(path.last().name, name("production"));
    assert_eq!(path.len(), 3);
    assert!(!path.is_single() && !path.is_empty());
    assert_eq!(path.position(&name("staging")), Some(1));
    assert_eq!(path.position(&name("qa")), None);
    assert_eq!(
        path.previous(&name("production")).unwrap().name,
        name("staging")
    );
    assert_eq!(path.previous(&name("testing")), None);
    assert_eq!(path.previous(&name("qa")), None);
    assert_eq!(path.get(&name("testing")), path.find("testing"));
    assert!(path.find("Testing").is_none());
}

#[test]
fn a_path_refuses_what_would_make_no_sense_naming_the_environment() {
    assert_eq!(EnvironmentPath::new(vec![]), Err(InvalidPath::Empty));
    assert_eq!(
        EnvironmentPath::new(vec![env("a", false), env("b", false), env("a", false)]),
        Err(InvalidPath::Duplicate(name("a")))
    );
    assert_eq!(
        EnvironmentPath::new(vec![env("a", true), env("b", false)]),
        Err(InvalidPath::FirstRequiresPrevious(name("a")))
    );
    let unnamed = Environment {
        naming: DistributionNaming::default(),
        ..env("b", false)
    };
    let err = EnvironmentPath::new(vec![env("a", false), unnamed]).unwrap_err();
    assert_eq!(err, InvalidPath::Unnamed(name("b")));
    assert!(
        err.to_string().starts_with("b names no distribution"),
        "{err}"
    );
    assert!(EnvironmentPath::new(vec![env("a", false), env("b", true)]).is_ok());
}

#[test]
fn the_first_environment_takes_any_version() {
    let check = promotion_check(
        &issue_path(),
        &name("testing"),
        VersionNumber::new(7),
        &versions(&[]),
    );
    assert_eq!(check, Some(PromotionCheck::FirstEnvironment));
}

#[test]
fn a_version_the_previous_environment_served_is_in_order() {
    let check = promotion_check(
        &issue_path(),
        &name("staging"),
        VersionNumber::new(7),
        &versions(&[3, 7]),
    );
    assert_eq!(check, Some(PromotionCheck::InOrder));
}

#[test]
fn a_version_the_previous_environment_never_served_is_out_of_order_and_refused_where_required() {
    let path = issue_path();
    let served = versions(&[3, 5]);
    let staging = promotion_check(&path, &name("staging"), VersionNumber::new(7), &served).unwrap();
    assert_eq!(
        staging,
        PromotionCheck::OutOfOrder {
            skips: name("testing"),
            refused: false
        }
    );
    assert!(!staging.is_refused(), "staging only warns");
    let production =
        promotion_check(&path, &name("production"), VersionNumber::new(7), &served).unwrap();
    assert_eq!(
        production,
        PromotionCheck::OutOfOrder {
            skips: name("staging"),
            refused: true
        }
    );
    assert!(production.is_refused());
    assert_eq!(
        promotion_check(&path, &name("qa"), VersionNumber::new(7), &served),
        None
    );
}

#[test]
fn ahead_by_counts_versions_only_when_the_earlier_environment_is_newer() {
    let v = |n| Some(VersionNumber::new(n));
    assert_eq!(ahead_by(v(9), v(7)), Some(2), "staging is 2 versions ahead");
    assert_eq!(ahead_by(v(7), v(7)), None, "level");
    assert_eq!(
        ahead_by(v(5), v(7)),
        None,
        "behind: production got a newer one"
    );
    assert_eq!(ahead_by(None, v(7)), None);
    assert_eq!(ahead_by(v(7), None), None);
    assert_eq!(ahead_by(v(u64::MAX), v(0)), Some(u64::MAX));
}

fn repo_name() -> impl Strategy<Value = String> {
    "[a-z0-9][a-z0-9._-]{0,30}"
}

proptest! {
    #[test]
    fn name_parsing_never_panics_and_accepts_only_the_alphabet(raw in ".{0,40}") {
        if let Ok(parsed) = EnvironmentName::parse(&raw) {
            prop_assert!((1..=32).contains(&raw.len()));
            prop_assert!(raw.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'));
            prop_assert_eq!(parsed.as_str(), raw.as_str());
        }
    }

    #[test]
    fn a_pattern_always_substitutes_the_repository_name(
        prefix in "[a-z-]{0,8}", suffix in "[a-z-]{0,8}", repo in repo_name()
    ) {
        let naming = DistributionNaming::new(pattern(&format!("{prefix}{{repo}}{suffix}")), []);
        prop_assert_eq!(naming.distribution_for(&repo), Some(format!("{prefix}{repo}{suffix}")));
    }

    #[test]
    fn explicit_names_win_and_others_follow_the_pattern(
        explicit in prop::collection::btree_map(repo_name(), "[a-z-]{1,12}", 0..6),
        repo in repo_name(),
        with_pattern in any::<bool>(),
    ) {
        let naming = DistributionNaming::new(
            with_pattern.then(|| NamePattern::parse("{repo}-x").unwrap()),
            explicit.clone(),
        );
        let expected = match explicit.get(&repo) {
            Some(given) => Some(given.clone()),
            None => with_pattern.then(|| format!("{repo}-x")),
        };
        prop_assert_eq!(naming.distribution_for(&repo), expected);
    }

    #[test]
    fn out_of_order_exactly_when_the_previous_environment_never_served_it(
        served in prop::collection::btree_set(0u64..20, 0..10), version in 0u64..20
    ) {
        let served: BTreeSet<VersionNumber> = served.into_iter().map(VersionNumber::new).collect();
        let version = VersionNumber::new(version);
        let check = promotion_check(&issue_path(), &name("production"), version, &served).unwrap();
        prop_assert_eq!(check == PromotionCheck::InOrder, served.contains(&version));
        prop_assert_eq!(check.is_refused(), !served.contains(&version));
    }

    #[test]
    fn ahead_by_is_the_positive_difference(a in any::<u64>(), b in any::<u64>()) {
        let lead = ahead_by(Some(VersionNumber::new(a)), Some(VersionNumber::new(b)));
        prop_assert_eq!(lead, (a > b).then(|| a - b));
    }
}
