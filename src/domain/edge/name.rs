//! An edge's name, as configured in `[[edges]]`: what pages, metrics and events call it.

use std::fmt;

/// The name of an edge Pulp: 1 to 63 characters of lowercase letters, digits, `-` and `_`,
/// starting with a letter or a digit (it appears in URLs, metric labels and HTML hooks).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct EdgeName(String);

/// Why a text is not an edge's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an edge name: write 1 to 63 lowercase letters, digits, '-' or '_', starting with a letter or a digit")]
pub struct InvalidEdgeName(pub String);

impl EdgeName {
    pub fn parse(text: &str) -> Result<Self, InvalidEdgeName> {
        let ok = (1..=63).contains(&text.len())
            && text
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if ok {
            Ok(Self(text.to_owned()))
        } else {
            Err(InvalidEdgeName(text.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EdgeName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_fit_for_urls_labels_and_hooks_is_accepted() {
        for good in ["dc1", "edge-fra_2", "9th"] {
            assert_eq!(EdgeName::parse(good).unwrap().as_str(), good);
        }
    }

    #[test]
    fn a_name_that_would_break_a_url_a_label_or_a_hook_is_refused() {
        let long = "a".repeat(64);
        for bad in ["", "-dc", "DC1", "dc 1", "dc\"1", "dc/1", long.as_str()] {
            assert!(EdgeName::parse(bad).is_err(), "{bad:?}");
        }
    }
}
