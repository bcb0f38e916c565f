use std::collections::BTreeMap;

use super::*;
use crate::domain::identity::Scope;
use crate::domain::policy::{Allowed, Subject};

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn production() -> EnvironmentName {
    EnvironmentName::production()
}

/// Production: group release and the token ci.
fn policy() -> Policy {
    let only =
        |texts: &[&str]| Allowed::Only(texts.iter().map(|t| Subject::parse(t).unwrap()).collect());
    Policy::new(
        BTreeMap::from([(production(), only(&["group:release", "token:ci"]))]),
        Allowed::Everyone,
    )
}

fn ci(expires: Option<&str>) -> TokenStanding {
    let operator = Operator::new("ci")
        .unwrap()
        .as_token(vec![Scope::deploy_to(&production())], None);
    TokenStanding {
        operator,
        expires: expires.map(at),
    }
}

fn run(
    kind: Option<ActorKind>,
    name: &str,
    groups: &[String],
    tokens: &TokenRoster,
    now: &str,
) -> Result<Operator, Lapsed> {
    let name = PersonName::new(name).unwrap();
    let person = if kind == Some(ActorKind::Token) {
        PersonKey::of_token(&name.key(CaseMatching::Caseless))
    } else {
        name.key(CaseMatching::Caseless)
    };
    let author = RecordedAuthor {
        name: &name,
        person: &person,
        groups,
        kind,
    };
    policy().author_now(author, &production(), tokens, at(now))
}

#[test]
fn a_token_still_configured_and_unexpired_acts_as_configured_now() {
    let tokens = TokenRoster::new(vec![ci(Some("2027-01-01T00:00:00Z"))]);
    let now = run(
        Some(ActorKind::Token),
        "ci",
        &[],
        &tokens,
        "2026-12-31T23:59:59Z",
    )
    .unwrap();
    assert_eq!(now.key().as_str(), "token:ci");
    assert!(now.token().is_some());
}

#[test]
fn an_expired_token_has_lapsed() {
    let tokens = TokenRoster::new(vec![ci(Some("2027-01-01T00:00:00Z"))]);
    let lapsed = run(
        Some(ActorKind::Token),
        "ci",
        &[],
        &tokens,
        "2027-01-01T00:00:00Z",
    )
    .unwrap_err();
    assert_eq!(
        lapsed,
        Lapsed::TokenExpired {
            name: PersonName::new("ci").unwrap(),
            expired: "2027-01-01T00:00:00Z".into()
        }
    );
}

#[test]
fn a_removed_token_has_lapsed_even_when_its_groups_would_allow_it() {
    let groups = vec!["release".to_owned()];
    let lapsed = run(
        Some(ActorKind::Token),
        "ci",
        &groups,
        &TokenRoster::default(),
        "2026-06-01T00:00:00Z",
    )
    .unwrap_err();
    assert_eq!(lapsed, Lapsed::TokenRemoved(PersonName::new("ci").unwrap()));
    assert!(
        lapsed.to_string().contains("no longer configured"),
        "{lapsed}"
    );
}

#[test]
fn a_token_whose_scopes_no_longer_reach_has_lapsed() {
    let narrowed = TokenStanding {
        operator: Operator::new("ci")
            .unwrap()
            .as_token(vec![Scope::Sync], None),
        expires: None,
    };
    let tokens = TokenRoster::new(vec![narrowed]);
    let lapsed = run(
        Some(ActorKind::Token),
        "ci",
        &[],
        &tokens,
        "2026-06-01T00:00:00Z",
    )
    .unwrap_err();
    assert!(
        matches!(lapsed, Lapsed::NotAllowed(Denied::OutOfScope(_))),
        "{lapsed:?}"
    );
}

#[test]
fn a_person_needs_the_policy_now_with_the_groups_of_then() {
    let tokens = TokenRoster::default();
    let release = vec!["release".to_owned()];
    assert!(run(
        Some(ActorKind::Person),
        "alice",
        &release,
        &tokens,
        "2026-06-01T00:00:00Z"
    )
    .is_ok());
    let lapsed = run(
        Some(ActorKind::Person),
        "alice",
        &[],
        &tokens,
        "2026-06-01T00:00:00Z",
    )
    .unwrap_err();
    assert!(
        matches!(lapsed, Lapsed::NotAllowed(Denied::NotListed(_))),
        "{lapsed:?}"
    );
}

#[test]
fn a_person_named_like_a_token_is_not_the_token() {
    let tokens = TokenRoster::new(vec![ci(None)]);
    let lapsed = run(
        Some(ActorKind::Person),
        "CI",
        &[],
        &tokens,
        "2026-06-01T00:00:00Z",
    )
    .unwrap_err();
    assert!(matches!(lapsed, Lapsed::NotAllowed(_)), "{lapsed:?}");
}

#[test]
fn a_record_from_before_kinds_is_the_configured_token_of_its_name() {
    let expired = TokenRoster::new(vec![ci(Some("2026-01-01T00:00:00Z"))]);
    let lapsed = run(None, "ci", &[], &expired, "2026-06-01T00:00:00Z").unwrap_err();
    assert!(matches!(lapsed, Lapsed::TokenExpired { .. }), "{lapsed:?}");
}

#[test]
fn actor_kinds_read_back_as_written() {
    for kind in [ActorKind::Person, ActorKind::Token] {
        let text = serde_json::to_string(&kind).unwrap();
        assert_eq!(serde_json::from_str::<ActorKind>(&text).unwrap(), kind);
    }
    assert_eq!(
        serde_json::to_string(&ActorKind::Token).unwrap(),
        "\"token\""
    );
}
