//! The `chain` member of a line: its hash, the previous line's, and (on the first chained line
//! or after a torn one) what came before.

use std::fmt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A SHA-256, written as 64 lowercase hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Sha256Hex(String);

impl Sha256Hex {
    /// The SHA-256 of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self::from_digest(&Sha256::digest(bytes))
    }

    pub fn from_digest(digest: &[u8]) -> Self {
        Self(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Sha256Hex {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        let well_formed =
            text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if well_formed {
            Ok(Self(text))
        } else {
            Err(format!(
                "'{text}' is not a SHA-256 (64 lowercase hexadecimal digits)"
            ))
        }
    }
}

impl From<Sha256Hex> for String {
    fn from(hash: Sha256Hex) -> Self {
        hash.0
    }
}

impl fmt::Display for Sha256Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The `chain` member of a line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// The SHA-256 of the line's canonical form without this member (see
    /// [`crate::domain::audit_chain::canonical`]). Absent only while it is computed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<Sha256Hex>,
    /// The `sha256` of the chained line before; on the line that starts the chain, the SHA-256
    /// of the lines before it (see [`Start`]).
    pub prev_sha256: Sha256Hex,
    /// Present on the line that starts the chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<Start>,
    /// The SHA-256 of the torn line just before this one (a write cut by a crash), when there
    /// is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torn: Option<Sha256Hex>,
}

/// The start of a chain: how many lines came before it (written before the chain began);
/// `prev_sha256` is the SHA-256 of their bytes, each followed by a newline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub lines_before: u64,
}
