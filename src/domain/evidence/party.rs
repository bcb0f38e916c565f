//! Who acted in a promotion as its evidence names them: a person by name, or an API token by
//! its name with the person who owns it (the person an auditor asks about). Read from the
//! operator of the promotion (who deployed) and from the approval request's record (who
//! asked, who approved).

use serde::{Deserialize, Serialize};

use crate::domain::approval::{Actor, ApprovalRequest};
use crate::domain::identity::{Operator, PersonKey, PersonName};
use crate::domain::policy::ActorKind;

/// A person, or an API token and its owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Party {
    /// A person, by the name the identity scheme sent.
    Person { name: String },
    /// An API token, by its configured name, and the person who owns it: the owner's name
    /// as configured, or the owner's key as the four-eyes rule compared it when only that was
    /// kept (null: the token has no owner).
    Token { name: String, owner: Option<String> },
    /// Only the name the audit line kept: the request's record that said more is gone.
    Named { name: String },
}

impl Party {
    /// Who `operator` is: an API token (live, or restored from a request's record) with its
    /// owner, or a person.
    pub fn of(operator: &Operator) -> Self {
        if !operator.key().is_token() {
            return Self::Person {
                name: operator.as_str().to_owned(),
            };
        }
        let configured = operator.token().and_then(|grant| grant.owner.as_ref());
        Self::Token {
            name: operator.as_str().to_owned(),
            owner: owner_of(configured, Some(operator.person())),
        }
    }

    /// Who approved (or rejected, or cancelled), as the request's record kept them.
    pub fn of_actor(actor: &Actor) -> Self {
        let ownerless_token = actor.person.as_ref().is_some_and(PersonKey::is_token);
        if actor.kind != Some(ActorKind::Token) && !ownerless_token {
            return Self::Person {
                name: actor.by.to_string(),
            };
        }
        Self::Token {
            name: actor.by.to_string(),
            owner: owner_of(actor.owner.as_ref(), actor.person.as_ref()),
        }
    }

    /// Who asked for `request`.
    pub fn of_requester(request: &ApprovalRequest) -> Self {
        if request.requester_kind != Some(ActorKind::Token) {
            return Self::Person {
                name: request.requester.to_string(),
            };
        }
        Self::Token {
            name: request.requester.to_string(),
            owner: owner_of(None, request.requester_key.as_ref()),
        }
    }

    /// A name alone, when nothing else was kept.
    pub fn named(name: &PersonName) -> Self {
        Self::Named {
            name: name.to_string(),
        }
    }

    /// The name it acted under (a person's, or a token's).
    pub fn name(&self) -> &str {
        match self {
            Self::Person { name } | Self::Token { name, .. } | Self::Named { name } => name,
        }
    }
}

/// A token's owner: the configured name when known, else the person key it acted as, unless
/// that key is the token's own (a token without an owner is its own person).
fn owner_of(configured: Option<&PersonName>, person: Option<&PersonKey>) -> Option<String> {
    configured.map(ToString::to_string).or_else(|| {
        person
            .filter(|key| !key.is_token())
            .map(ToString::to_string)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::identity::{CaseMatching, Scope};

    fn person(name: &str) -> PersonName {
        PersonName::new(name).expect("a name")
    }

    #[test]
    fn a_person_is_named_as_sent() {
        let alice = Operator::new("Alice").unwrap();
        assert_eq!(
            Party::of(&alice),
            Party::Person {
                name: "Alice".into()
            }
        );
        assert_eq!(
            Party::of_actor(&Actor::of(&alice)),
            Party::Person {
                name: "Alice".into()
            }
        );
    }

    #[test]
    fn a_token_is_named_with_its_owner() {
        let token = Operator::new("ci-bot")
            .unwrap()
            .as_token(vec![Scope::Sync], Some(person("Bob")));
        let expected = Party::Token {
            name: "ci-bot".into(),
            owner: Some("Bob".into()),
        };
        assert_eq!(Party::of(&token), expected);
        assert_eq!(Party::of_actor(&Actor::of(&token)), expected);
    }

    #[test]
    fn a_token_without_an_owner_says_so() {
        let token = Operator::new("ci-bot").unwrap().as_token(vec![], None);
        let expected = Party::Token {
            name: "ci-bot".into(),
            owner: None,
        };
        assert_eq!(Party::of(&token), expected);
        assert_eq!(Party::of_actor(&Actor::of(&token)), expected);
    }

    #[test]
    fn a_token_restored_from_a_request_names_its_owner_by_key() {
        let restored = Operator::restored(
            &person("ci-bot"),
            person("Bob").key(CaseMatching::Caseless),
            &[],
            CaseMatching::Caseless,
        )
        .restored_as_token();
        assert_eq!(
            Party::of(&restored),
            Party::Token {
                name: "ci-bot".into(),
                owner: Some("bob".into()),
            }
        );
    }

    #[test]
    fn an_approval_kept_before_kinds_were_is_a_person_unless_its_key_is_a_token() {
        let old = Actor {
            by: person("carol"),
            person: Some(person("carol").key(CaseMatching::Caseless)),
            kind: None,
            owner: None,
        };
        assert_eq!(
            Party::of_actor(&old),
            Party::Person {
                name: "carol".into()
            }
        );
        let old_token = Actor {
            person: Some(PersonKey::of_token(
                &person("bot").key(CaseMatching::Caseless),
            )),
            by: person("bot"),
            kind: None,
            owner: None,
        };
        assert_eq!(
            Party::of_actor(&old_token),
            Party::Token {
                name: "bot".into(),
                owner: None
            }
        );
    }

    #[test]
    fn the_json_names_the_type() {
        let party = Party::Token {
            name: "ci-bot".into(),
            owner: Some("Bob".into()),
        };
        assert_eq!(
            serde_json::to_string(&party).unwrap(),
            r#"{"type":"token","name":"ci-bot","owner":"Bob"}"#
        );
    }
}
