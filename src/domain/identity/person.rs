//! A person's name as sent (shown and audited as it is) and the canonical key people are
//! compared by (requester, approver, canceller, `user:` subjects, token owners).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::identity::matching::CaseMatching;

/// The longest name accepted (a proxy's user names are far shorter).
const MAX_LEN: usize = 256;

/// A person's (or a token's) name as the identity scheme sent it: trimmed, non-empty, at
/// most 256 characters, no control characters (it goes into audit lines and logs as it is).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct PersonName(String);

/// Why a text is not a name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidName {
    #[error("the name is empty")]
    Empty,
    #[error("the name is longer than {MAX_LEN} characters")]
    TooLong,
    #[error("the name holds a control character")]
    ControlCharacter,
}

/// The trimmed `text`, when it is a usable name (people and groups alike).
pub(crate) fn checked_name(text: &str) -> Result<&str, InvalidName> {
    let text = text.trim();
    if text.is_empty() {
        return Err(InvalidName::Empty);
    }
    if text.chars().count() > MAX_LEN {
        return Err(InvalidName::TooLong);
    }
    if text.chars().any(char::is_control) {
        return Err(InvalidName::ControlCharacter);
    }
    Ok(text)
}

impl PersonName {
    pub fn new(text: &str) -> Result<Self, InvalidName> {
        checked_name(text).map(|name| Self(name.to_owned()))
    }

    /// The key this name is compared by, under `matching`.
    pub fn key(&self, matching: CaseMatching) -> PersonKey {
        PersonKey(matching.canonical(&self.0))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for PersonName {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for PersonName {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl TryFrom<String> for PersonName {
    type Error = InvalidName;

    fn try_from(text: String) -> Result<Self, InvalidName> {
        Self::new(&text)
    }
}

impl From<PersonName> for String {
    fn from(name: PersonName) -> Self {
        name.0
    }
}

impl fmt::Display for PersonName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The canonical key of a person: two names with one key are one person. Made only from
/// a [`PersonName`] under a [`CaseMatching`]; stored with a request so that the four-eyes
/// rule compares people, not spellings.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PersonKey(String);

impl PersonKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PersonKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
