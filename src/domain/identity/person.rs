//! A person's name as sent (shown and audited as it is) and the canonical key people are
//! compared by (requester, approver, canceller, write limits, `user:` subjects, token
//! owners). A name coming in (from the proxy, a token's configuration, the policy) is
//! [`admitted`] only when it has one key beyond doubt: no control, bidirectional-control or
//! default-ignorable code point, and nothing the RFC 8265 profile refuses.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::identity::CaseMatching;

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
    #[error(
        "the name holds the bidirectional control {} ({}), which can make it read as another \
         name; send it without",
        code_point(*.0), char_name(*.0)
    )]
    BidiControl(char),
    #[error(
        "the name holds the invisible code point {} ({}), which would make another spelling of \
         a name; send it without",
        code_point(*.0), char_name(*.0)
    )]
    Invisible(char),
    #[error(
        "the name holds {}, which user names may not hold (RFC 8265 PRECIS username profile: \
         letters, digits and printable ASCII, parts separated by single spaces)",
        code_point(*.0)
    )]
    NotAUserName(char),
    #[error("names beginning with 'token:' are the API tokens' own: a person may not have one")]
    TokenPrefix,
}

/// `U+200B`.
fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// What `c` is, in words, for the few that names meet.
fn char_name(c: char) -> &'static str {
    match c {
        '\u{00AD}' => "soft hyphen",
        '\u{200B}' => "zero-width space",
        '\u{200C}' => "zero-width non-joiner",
        '\u{200D}' => "zero-width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero-width no-break space",
        '\u{034F}' => "combining grapheme joiner",
        '\u{FE00}'..='\u{FE0F}' => "variation selector",
        '\u{061C}' | '\u{200E}' | '\u{200F}' => "directional mark",
        '\u{202A}'..='\u{202E}' => "directional embedding or override",
        '\u{2066}'..='\u{2069}' => "directional isolate",
        _ => "default-ignorable",
    }
}

/// The prefix of a token's keys: a person's name never has it, so no person's key is a
/// token's.
pub(crate) const TOKEN_PREFIX: &str = "token:";

/// Whether `c` is a bidirectional control (Unicode's Bidi_Control property).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is a default-ignorable code point (Unicode's Default_Ignorable_Code_Point,
/// DerivedCoreProperties.txt): shown as nothing, so `ali` + soft hyphen + `ce` looks like
/// `alice`.
fn is_default_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'..='\u{1160}'
            | '\u{17B4}'..='\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF0}'..='\u{FFF8}'
            | '\u{1BCA0}'..='\u{1BCA3}'
            | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// The trimmed `text` when it is a name coming in that has one key beyond doubt under
/// `matching`: a usable name ([`checked_name`]), no bidirectional-control or
/// default-ignorable code point, admitted by the RFC 8265 profile, not a token's prefix.
pub(crate) fn admitted(text: &str, matching: CaseMatching) -> Result<&str, InvalidName> {
    let text = checked_name(text)?;
    if let Some(c) = text.chars().find(|c| is_bidi_control(*c)) {
        return Err(InvalidName::BidiControl(c));
    }
    if let Some(c) = text.chars().find(|c| is_default_ignorable(*c)) {
        return Err(InvalidName::Invisible(c));
    }
    let key = matching
        .enforced(text)
        .map_err(|refused| InvalidName::NotAUserName(refused.0))?;
    if key
        .get(..TOKEN_PREFIX.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(TOKEN_PREFIX))
    {
        return Err(InvalidName::TokenPrefix);
    }
    Ok(text)
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
    /// `text` (trimmed) as a name read back from a record: usable, not judged by the
    /// profile (a record kept before it was applied is still read).
    pub fn new(text: &str) -> Result<Self, InvalidName> {
        checked_name(text).map(|name| Self(name.to_owned()))
    }

    /// `text` (trimmed) as a name coming in (the proxy, a token's configuration, the
    /// policy): see [`admitted`].
    pub fn admit(text: &str, matching: CaseMatching) -> Result<Self, InvalidName> {
        admitted(text, matching).map(|name| Self(name.to_owned()))
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

    /// The key of the API token whose name has key `name`: `token:<key>`, which no person's
    /// key is ([`admitted`] refuses names with that prefix).
    pub fn of_token(name: &PersonKey) -> Self {
        Self(format!("{TOKEN_PREFIX}{}", name.0))
    }

    /// Whether this is an API token's key.
    pub fn is_token(&self) -> bool {
        self.0.starts_with(TOKEN_PREFIX)
    }
}

impl fmt::Display for PersonKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
