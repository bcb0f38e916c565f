//! How two spellings of one name are told to be the same: Unicode caseless matching (the
//! default, as directories behind SSO compare user names) or exact, after trimming
//! (`identity.case_sensitive = true`).

use unicode_normalization::UnicodeNormalization;

/// The rule that turns a name into the key people and groups are compared by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CaseMatching {
    /// Unicode caseless matching: NFC(full case folding(NFD(trimmed name))), so `ALICE` is
    /// `alice`, `STRASSE` is `Straße`, and a composed `zoë` is a decomposed one.
    #[default]
    Caseless,
    /// The trimmed name as it is, in NFC (only the Unicode encoding is unified).
    CaseSensitive,
}

impl CaseMatching {
    /// The setting `identity.case_sensitive` names.
    pub fn from_case_sensitive(case_sensitive: bool) -> Self {
        if case_sensitive {
            Self::CaseSensitive
        } else {
            Self::Caseless
        }
    }

    /// The canonical form of `name` under this rule.
    pub fn canonical(self, name: &str) -> String {
        let name = name.trim();
        match self {
            Self::Caseless => {
                let decomposed: String = name.nfd().collect();
                caseless::default_case_fold_str(&decomposed).nfc().collect()
            }
            Self::CaseSensitive => name.nfc().collect(),
        }
    }
}
