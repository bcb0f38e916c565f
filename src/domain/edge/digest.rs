//! The digest of a distribution's published metadata: what an edge and the central Pulp are
//! compared by.

use std::fmt;

/// The sha256 of the published metadata's index (`repodata/repomd.xml`), 64 lowercase hex
/// digits. Two content apps serving the same digest serve the same repository to dnf.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct MetadataDigest(String);

/// Why a text is not a metadata digest.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a sha256 digest (64 hex digits)")]
pub struct InvalidDigest(pub String);

impl MetadataDigest {
    pub fn parse(text: &str) -> Result<Self, InvalidDigest> {
        let lower = text.to_ascii_lowercase();
        if lower.len() == 64 && lower.chars().all(|c| c.is_ascii_hexdigit()) {
            Ok(Self(lower))
        } else {
            Err(InvalidDigest(text.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first 12 digits, for pages.
    pub fn short(&self) -> &str {
        &self.0[..12]
    }
}

impl fmt::Display for MetadataDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sha256_in_either_case_reads_as_the_same_digest() {
        let lower = "ab".repeat(32);
        let upper = lower.to_uppercase();
        assert_eq!(
            MetadataDigest::parse(&upper).unwrap(),
            MetadataDigest::parse(&lower).unwrap()
        );
        assert_eq!(MetadataDigest::parse(&lower).unwrap().short(), &lower[..12]);
    }

    #[test]
    fn anything_but_64_hex_digits_is_refused() {
        for bad in ["", "ab", &"g".repeat(64), &"a".repeat(65)] {
            assert!(MetadataDigest::parse(bad).is_err(), "{bad:?}");
        }
    }
}
