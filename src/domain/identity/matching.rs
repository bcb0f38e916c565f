//! How two spellings of one name are told to be the same: the PRECIS profiles of RFC 8265
//! for user names, `UsernameCaseMapped` by default (width mapping, case mapping, NFC: so
//! `ＡＬＩＣＥ`, `Alice` and `alice` are one person) or `UsernameCasePreserved` with
//! `identity.case_sensitive = true` (width mapping and NFC only). A name is a sequence of
//! parts separated by single spaces (RFC 8265 §3.1), each part put through the profile.
//!
//! A name the profile refuses (a zero-width space, a soft hyphen, a symbol, a space twice)
//! is refused where it comes in ([`super::person::admitted`]); [`CaseMatching::canonical`]
//! still gives such a name a key, for records kept before the profile was applied: its NFC
//! in lower case, which no admitted name has.

use std::borrow::Cow;

use precis_core::profile::PrecisFastInvocation;
use precis_core::Error as PrecisError;
use precis_profiles::{UsernameCaseMapped, UsernameCasePreserved};
use unicode_normalization::UnicodeNormalization;

/// The rule that turns a name into the key people and groups are compared by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CaseMatching {
    /// RFC 8265 `UsernameCaseMapped`: fullwidth forms mapped to their usual width, lower
    /// case, NFC.
    #[default]
    Caseless,
    /// RFC 8265 `UsernameCasePreserved`: fullwidth forms mapped, NFC; case kept.
    CaseSensitive,
}

/// Why a name is not one the profile admits: the first code point it refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RefusedCodePoint(pub char);

impl CaseMatching {
    /// The setting `identity.case_sensitive` names.
    pub fn from_case_sensitive(case_sensitive: bool) -> Self {
        if case_sensitive {
            Self::CaseSensitive
        } else {
            Self::Caseless
        }
    }

    /// The canonical form of `name` (trimmed) under this rule; a name the profile refuses
    /// (kept before it was applied) gets its NFC, in lower case unless case-sensitive.
    pub fn canonical(self, name: &str) -> String {
        let name = name.trim();
        self.enforced(name).unwrap_or_else(|_| match self {
            Self::Caseless => name.nfc().collect::<String>().to_lowercase(),
            Self::CaseSensitive => name.nfc().collect(),
        })
    }

    /// `name` (trimmed) through this rule's profile, part by part, or the first code point
    /// the profile refuses (a space where no part is, e.g. twice in a row, is refused too).
    pub fn enforced(self, name: &str) -> Result<String, RefusedCodePoint> {
        let parts: Result<Vec<Cow<'_, str>>, RefusedCodePoint> = name
            .trim()
            .split(' ')
            .map(|part| {
                let enforced = match self {
                    Self::Caseless => UsernameCaseMapped::enforce(part),
                    Self::CaseSensitive => UsernameCasePreserved::enforce(part),
                };
                enforced.map_err(|error| refused_in(part, &error))
            })
            .collect();
        Ok(parts?.join(" "))
    }
}

/// The code point of `part` the profile's `error` names (a space for an empty part).
fn refused_in(part: &str, error: &PrecisError) -> RefusedCodePoint {
    let named = match error {
        PrecisError::BadCodepoint(info) => char::from_u32(info.cp),
        _ => None,
    };
    RefusedCodePoint(named.or_else(|| part.chars().next()).unwrap_or(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fullwidth_and_case_are_one_key_under_the_default() {
        let key = |t: &str| CaseMatching::Caseless.enforced(t).unwrap();
        assert_eq!(key("ＡＬＩＣＥ"), "alice");
        assert_eq!(key("Alice"), "alice");
        assert_eq!(key("Guybrush Threepwood"), "guybrush threepwood");
        let exact = |t: &str| CaseMatching::CaseSensitive.enforced(t).unwrap();
        assert_eq!(exact("ＡＬＩＣＥ"), "ALICE");
        assert_ne!(exact("ALICE"), exact("alice"));
    }

    #[test]
    fn invisible_and_formatting_code_points_are_refused_by_the_profile() {
        for (name, refused) in [
            ("alice\u{200B}", '\u{200B}'),
            ("ali\u{00AD}ce", '\u{00AD}'),
            ("alice\u{202E}", '\u{202E}'),
            ("al\u{2063}ice", '\u{2063}'),
            ("a  b", ' '),
        ] {
            for matching in [CaseMatching::Caseless, CaseMatching::CaseSensitive] {
                assert_eq!(
                    matching.enforced(name),
                    Err(RefusedCodePoint(refused)),
                    "{name:?}"
                );
            }
        }
    }

    #[test]
    fn a_refused_name_kept_from_before_has_a_key_no_admitted_name_has() {
        let old = CaseMatching::Caseless.canonical("Alice\u{200B}");
        assert_eq!(old, "alice\u{200B}");
        assert_ne!(old, CaseMatching::Caseless.canonical("alice"));
    }
}
