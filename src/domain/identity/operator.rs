//! Who performs a deploy, a sync or an approval: a name as sent, the person it is (the
//! canonical key people are compared by), the groups, and, for an API token, its scopes
//! and owner.

use std::fmt;

use crate::domain::identity::{CaseMatching, GroupName, InvalidName, PersonKey, PersonName, Scope};

/// Why a name is not an operator's name (kept under its former name).
pub type InvalidOperator = InvalidName;

/// An operator as the identity scheme vouched for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operator {
    name: PersonName,
    /// The name's key: what `user:<name>` subjects are compared with.
    key: PersonKey,
    /// The person acting: the key of a token's owner, else the name's key. The four-eyes
    /// rule compares these.
    person: PersonKey,
    /// The groups the identity scheme named, each once, in key order.
    groups: Vec<GroupName>,
    /// For an API token: what it may do, and who is behind it.
    token: Option<TokenGrant>,
    matching: CaseMatching,
}

/// What an API token brings besides its name: its scopes, and the person behind it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenGrant {
    pub scopes: Vec<Scope>,
    pub owner: Option<PersonName>,
}

/// A write outside an API token's scopes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the API token '{token}' lacks the scope '{needed}' (its scopes: {held}; \
     [[api.tokens]] scopes in the console's configuration)"
)]
pub struct MissingScope {
    pub token: PersonName,
    pub needed: Scope,
    pub held: String,
}

impl Operator {
    /// `name` (trimmed) under the default caseless matching.
    pub fn new(name: &str) -> Result<Self, InvalidOperator> {
        Self::with_matching(name, CaseMatching::default())
    }

    /// `name` (trimmed), compared with others under `matching`: a name coming in, so one
    /// the identity rule admits ([`PersonName::admit`]).
    pub fn with_matching(name: &str, matching: CaseMatching) -> Result<Self, InvalidOperator> {
        let name = PersonName::admit(name, matching)?;
        let key = name.key(matching);
        Ok(Self {
            person: key.clone(),
            key,
            name,
            groups: Vec::new(),
            token: None,
            matching,
        })
    }

    /// The operator a stored request names: `name` as sent, who was `person`, in `groups`.
    pub fn restored(
        name: &PersonName,
        person: PersonKey,
        groups: &[String],
        matching: CaseMatching,
    ) -> Self {
        let operator = Self {
            key: name.key(matching),
            name: name.clone(),
            person,
            groups: Vec::new(),
            token: None,
            matching,
        };
        operator.with_groups(groups.to_vec())
    }

    /// The same restored operator, an API token when it was one: compared by its token key
    /// (`token:` subjects), with no scopes of its own (a token's standing now is judged by
    /// the authority at run time, `domain/policy/authority.rs`).
    pub fn restored_as_token(mut self) -> Self {
        self.key = PersonKey::of_token(&self.name.key(self.matching));
        self
    }

    /// The same operator, member of `groups` (trimmed; empty ones and those holding a
    /// control character left out, each group once). Adapters that must refuse a bad group
    /// rather than leave it out check with [`GroupName::new`] first.
    pub fn with_groups(mut self, groups: Vec<String>) -> Self {
        let mut groups: Vec<GroupName> = groups
            .iter()
            .filter_map(|g| GroupName::new(g, self.matching).ok())
            .collect();
        groups.sort();
        groups.dedup();
        self.groups = groups;
        self
    }

    /// The same operator as an API token with these scopes, owned by `owner` (whose key
    /// becomes the person acting) or by nobody (the token is its own person). Its key
    /// becomes `token:<key>`: only `token:` subjects name it, and no person shares its
    /// write limit or its schedules.
    pub fn as_token(mut self, scopes: Vec<Scope>, owner: Option<PersonName>) -> Self {
        if self.token.is_none() {
            self.key = PersonKey::of_token(&self.key);
        }
        self.person = match &owner {
            Some(owner) => owner.key(self.matching),
            None => self.key.clone(),
        };
        self.token = Some(TokenGrant { scopes, owner });
        self
    }

    /// Whether the operator holds `needed`: a token must list it; anyone else needs none.
    pub fn holds(&self, needed: &Scope) -> Result<(), MissingScope> {
        let Some(token) = &self.token else {
            return Ok(());
        };
        if token.scopes.iter().any(|s| s.grants(needed)) {
            return Ok(());
        }
        let held: Vec<String> = token.scopes.iter().map(Scope::to_string).collect();
        Err(MissingScope {
            token: self.name.clone(),
            needed: needed.clone(),
            held: if held.is_empty() {
                "none".to_owned()
            } else {
                held.join(", ")
            },
        })
    }

    /// The groups, as the identity scheme wrote them.
    pub fn groups(&self) -> Vec<String> {
        self.groups.iter().map(|g| g.as_str().to_owned()).collect()
    }

    /// Whether the operator is a member of `group` (compared by key).
    pub fn is_member_of(&self, group: &GroupName) -> bool {
        self.groups.contains(group)
    }

    /// The spec's placeholder, for a console without an identity scheme.
    pub fn placeholder() -> Self {
        Self::new("operator").expect("'operator' is a valid name")
    }

    pub fn name(&self) -> &PersonName {
        &self.name
    }

    /// The name's key (what `user:` subjects match; `token:<key>` for an API token, what
    /// `token:` subjects match).
    pub fn key(&self) -> &PersonKey {
        &self.key
    }

    /// The person acting (a token's owner, when it names one).
    pub fn person(&self) -> &PersonKey {
        &self.person
    }

    /// The token's grant, for an API token.
    pub fn token(&self) -> Option<&TokenGrant> {
        self.token.as_ref()
    }

    pub fn matching(&self) -> CaseMatching {
        self.matching
    }

    pub fn as_str(&self) -> &str {
        self.name.as_str()
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_checked() {
        assert_eq!(Operator::new("  alice ").unwrap().as_str(), "alice");
        assert_eq!(Operator::new(" "), Err(InvalidOperator::Empty));
        assert_eq!(
            Operator::new("a\u{1b}[31m"),
            Err(InvalidOperator::ControlCharacter)
        );
        assert_eq!(
            Operator::new(&"x".repeat(257)),
            Err(InvalidOperator::TooLong)
        );
        assert!(Operator::new(&"é".repeat(256)).is_ok());
    }

    #[test]
    fn a_name_is_shown_as_sent_and_compared_by_its_key() {
        let upper = Operator::new("ALICE").unwrap();
        assert_eq!(upper.as_str(), "ALICE");
        assert_eq!(upper.person(), Operator::new("alice").unwrap().person());
        let exact = Operator::with_matching("ALICE", CaseMatching::CaseSensitive).unwrap();
        let lower = Operator::with_matching("alice", CaseMatching::CaseSensitive).unwrap();
        assert_ne!(exact.person(), lower.person());
    }

    #[test]
    fn groups_are_kept_once_by_key_as_first_written() {
        let op = Operator::new("a").unwrap().with_groups(vec![
            "Release".into(),
            " release ".into(),
            "".into(),
            "ops".into(),
        ]);
        assert_eq!(op.groups(), ["ops", "Release"]);
    }

    #[test]
    fn an_owned_token_acts_as_its_owner_within_its_scopes() {
        let owner = PersonName::new("Alice").unwrap();
        let bot = Operator::new("alice-bot")
            .unwrap()
            .as_token(vec![Scope::Sync], Some(owner));
        assert_eq!(bot.person(), Operator::new("alice").unwrap().person());
        assert_eq!(bot.key().as_str(), "token:alice-bot");
        assert_ne!(bot.key(), Operator::new("alice-bot").unwrap().key());
        assert!(bot.holds(&Scope::Sync).is_ok());
        let production = crate::domain::environment::EnvironmentName::production();
        let missing = bot.holds(&Scope::deploy_to(&production)).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "the API token 'alice-bot' lacks the scope 'deploy:production' (its scopes: sync; \
             [[api.tokens]] scopes in the console's configuration)"
        );
        let person = Operator::new("alice").unwrap();
        assert!(person.holds(&Scope::deploy_to(&production)).is_ok());
    }
}
