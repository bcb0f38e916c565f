//! Writing a chained line: what the next line links to, read from the end of the log, and
//! the line sealed with its hash.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::canonical::canonical_bytes;
use super::link::{Link, Sha256Hex, Start};

/// What the next line links to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Next {
    /// The newest line is chained: the next follows it (naming the torn line between them,
    /// when there is one).
    After {
        prev: Sha256Hex,
        torn: Option<Sha256Hex>,
    },
    /// The chain starts with the next line, after `lines_before` lines whose bytes (each
    /// followed by a newline) have the SHA-256 `digest`.
    Start {
        lines_before: u64,
        digest: Sha256Hex,
    },
}

/// The SHA-256 of the lines before a chain's start, fed line by line (every line of the log,
/// empty ones too, without its newline).
#[derive(Clone, Default)]
pub struct StartDigest {
    hasher: Sha256,
    lines: u64,
}

impl StartDigest {
    pub fn add(&mut self, line: &[u8]) {
        self.hasher.update(line);
        self.hasher.update(b"\n");
        self.lines += 1;
    }

    /// How many lines were fed.
    pub fn lines(&self) -> u64 {
        self.lines
    }

    /// The digest of the lines fed so far (the digest goes on taking lines).
    pub fn digest(&self) -> Sha256Hex {
        Sha256Hex::from_digest(&self.hasher.clone().finalize())
    }

    /// A chain starting after the lines fed.
    pub fn start(&self) -> Next {
        Next::Start {
            lines_before: self.lines,
            digest: self.digest(),
        }
    }
}

/// The link of the next line from the newest lines of the log, newest first (empty lines
/// left out; two are enough): after the newest line when it is chained, or after the one
/// before it when the newest does not read as a record (a torn line, which the next line then
/// names). `None` when the chain has to start: the caller reads the whole log through a
/// [`StartDigest`].
pub fn next_after(newest: &[&[u8]]) -> Option<Next> {
    let Some(last) = newest.first() else {
        return Some(StartDigest::default().start());
    };
    if let Some(link) = link_of(last) {
        return Some(Next::After {
            prev: link.sha256?,
            torn: None,
        });
    }
    if reads_as_object(last) {
        return None;
    }
    let link = link_of(newest.get(1)?)?;
    Some(Next::After {
        prev: link.sha256?,
        torn: Some(Sha256Hex::of(last)),
    })
}

/// The `chain` member of a line, when it has one that reads.
pub fn link_of(line: &[u8]) -> Option<Link> {
    #[derive(Deserialize)]
    struct Chained {
        chain: Link,
    }
    serde_json::from_slice::<Chained>(line)
        .ok()
        .map(|chained| chained.chain)
}

fn reads_as_object(line: &[u8]) -> bool {
    matches!(serde_json::from_slice::<Value>(line), Ok(Value::Object(_)))
}

/// Why a record could not be sealed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    #[error("the record does not serialize: {0}")]
    Serialize(String),
    #[error("the record is not a JSON object and cannot carry its hash")]
    NotAnObject,
}

/// The record as one chained line (without its newline): its JSON object as the record
/// serializes it (so readers that look for a member's text still find it), with the `chain`
/// member linking it to `next`, and its own hash, appended.
pub fn seal(record: &impl Serialize, next: &Next) -> Result<String, SealError> {
    let text = serde_json::to_string(record).map_err(|e| SealError::Serialize(e.to_string()))?;
    seal_text(&text, next)
}

/// [`seal`] of a record already serialized as `text` (one JSON object).
pub fn seal_text(text: &str, next: &Next) -> Result<String, SealError> {
    let mut value: Value =
        serde_json::from_str(text).map_err(|e| SealError::Serialize(e.to_string()))?;
    let mut link = match next {
        Next::After { prev, torn } => Link {
            sha256: None,
            prev_sha256: prev.clone(),
            start: None,
            torn: torn.clone(),
        },
        Next::Start {
            lines_before,
            digest,
        } => Link {
            sha256: None,
            prev_sha256: digest.clone(),
            start: Some(Start {
                lines_before: *lines_before,
            }),
            torn: None,
        },
    };
    let Value::Object(members) = &mut value else {
        return Err(SealError::NotAnObject);
    };
    let chain = serde_json::to_value(&link).map_err(|e| SealError::Serialize(e.to_string()))?;
    members.insert("chain".to_owned(), chain);
    link.sha256 = Some(Sha256Hex::of(&canonical_bytes(&value)));
    let chain = serde_json::to_string(&link).map_err(|e| SealError::Serialize(e.to_string()))?;
    let body = text
        .strip_suffix('}')
        .ok_or(SealError::NotAnObject)?
        .trim_end();
    let separator = if body == "{" { "" } else { "," };
    Ok(format!("{body}{separator}\"chain\":{chain}}}"))
}

/// The hash a chained line should carry: the SHA-256 of its canonical form without
/// `chain.sha256`.
pub fn hash_of(mut line: Value) -> Sha256Hex {
    if let Some(Value::Object(chain)) = line.get_mut("chain") {
        chain.remove("sha256");
    }
    Sha256Hex::of(&canonical_bytes(&line))
}
