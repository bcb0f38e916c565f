//! Authority at run time: a schedule or an approved request runs on behalf of its author
//! later than it was asked, so it runs only if its author could still ask it then. A token
//! author's token must still be configured and unexpired (its scopes and groups then are
//! the configuration's now); a person must still be allowed by the policy now, with the
//! groups the proxy vouched for when they asked. Otherwise the authority lapsed: the deploy
//! is refused (`authority_lapsed`) and nothing moves.

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::environment::EnvironmentName;
use crate::domain::identity::{CaseMatching, Operator, PersonKey, PersonName};
use crate::domain::policy::{Denied, Policy};

/// How an author acted when they asked: as a person (the proxy's name) or through an API
/// token. Kept with schedules and requests; absent from those kept before it was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActorKind {
    Person,
    Token,
}

impl ActorKind {
    /// How `operator` acts.
    pub fn of(operator: &Operator) -> Self {
        if operator.token().is_some() {
            Self::Token
        } else {
            Self::Person
        }
    }
}

/// One configured API token as it stands: who it is (name, groups, scopes, owner) and when
/// it stops being accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenStanding {
    pub operator: Operator,
    pub expires: Option<DateTime<Utc>>,
}

/// The API tokens configured now (empty: none).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TokenRoster(Vec<TokenStanding>);

impl TokenRoster {
    pub fn new(tokens: Vec<TokenStanding>) -> Self {
        Self(tokens)
    }

    /// The token whose key is `key` (`token:<name key>`).
    fn with_key(&self, key: &PersonKey) -> Option<&TokenStanding> {
        self.0.iter().find(|t| t.operator.key() == key)
    }
}

/// The author of a schedule or a request as it was recorded.
#[derive(Debug, Clone, Copy)]
pub struct RecordedAuthor<'a> {
    pub name: &'a PersonName,
    /// The person acting (a token's owner's key, or the name's).
    pub person: &'a PersonKey,
    /// The groups vouched for when they asked.
    pub groups: &'a [String],
    /// `None` for a record kept before it was recorded: a configured token of the author's
    /// name is then taken to be the author.
    pub kind: Option<ActorKind>,
}

/// Why an author may no longer have their deploy run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Lapsed {
    #[error(
        "the API token '{0}' that asked for it is no longer configured ([[api.tokens]] in the \
         console's configuration)"
    )]
    TokenRemoved(PersonName),
    #[error(
        "the API token '{name}' that asked for it expired at {expired} ([[api.tokens]] expires \
         in the console's configuration)"
    )]
    TokenExpired { name: PersonName, expired: String },
    #[error("its author may no longer do it: {0}")]
    NotAllowed(Denied),
}

impl Policy {
    /// The author of a deploy to `environment` asked earlier, as they may act at `now`
    /// (a token: as configured now), or why their authority lapsed.
    pub fn author_now(
        &self,
        author: RecordedAuthor<'_>,
        environment: &EnvironmentName,
        tokens: &TokenRoster,
        now: DateTime<Utc>,
    ) -> Result<Operator, Lapsed> {
        let matching: CaseMatching = self.matching();
        let token_key = PersonKey::of_token(&author.name.key(matching));
        let token = match author.kind {
            Some(ActorKind::Token) => Some(
                tokens
                    .with_key(&token_key)
                    .ok_or_else(|| Lapsed::TokenRemoved(author.name.clone()))?,
            ),
            Some(ActorKind::Person) => None,
            None => tokens.with_key(&token_key),
        };
        let operator = match token {
            Some(token) => {
                if let Some(expires) = token.expires.filter(|at| now >= *at) {
                    return Err(Lapsed::TokenExpired {
                        name: author.name.clone(),
                        expired: expires.to_rfc3339_opts(SecondsFormat::Secs, true),
                    });
                }
                token.operator.clone()
            }
            None => Operator::restored(author.name, author.person.clone(), author.groups, matching),
        };
        self.may_deploy(environment, &operator)
            .map_err(Lapsed::NotAllowed)?;
        Ok(operator)
    }
}

#[cfg(test)]
#[path = "authority_tests.rs"]
mod tests;
