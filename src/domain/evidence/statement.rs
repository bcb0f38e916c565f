//! The in-toto Statement v1 of a promotion: its subject and predicate.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::evidence::predicate::PromotionPredicate;

/// `_type` of every in-toto Statement v1.
pub const STATEMENT_TYPE: &str = "https://in-toto.io/Statement/v1";

/// The predicate type this project defines (documented in the book's reference, Evidence).
pub const PREDICATE_TYPE: &str = "https://repo-console.dev/attestation/promotion/v1";

/// A statement: what was promoted (`subject`) and how (`predicate`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    #[serde(rename = "_type")]
    pub statement_type: String,
    pub subject: Vec<Subject>,
    #[serde(rename = "predicateType")]
    pub predicate_type: String,
    pub predicate: PromotionPredicate,
}

/// The repository in its environment (`<repository>@<environment>`), with the SHA-256 of the
/// metadata clients fetch from the distribution after the move (RPM: `repodata/repomd.xml`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subject {
    pub name: String,
    pub digest: BTreeMap<String, String>,
}

impl Subject {
    pub fn new(repository: &str, environment: &str, sha256: &Sha256Hex) -> Self {
        Self {
            name: format!("{repository}@{environment}"),
            digest: BTreeMap::from([("sha256".to_owned(), sha256.to_string())]),
        }
    }

    /// The subject's SHA-256, when it has one.
    pub fn sha256(&self) -> Option<&str> {
        self.digest.get("sha256").map(String::as_str)
    }
}

impl Statement {
    /// The statement of `predicate` about `subject`.
    pub fn of(subject: Subject, predicate: PromotionPredicate) -> Self {
        Self {
            statement_type: STATEMENT_TYPE.to_owned(),
            subject: vec![subject],
            predicate_type: PREDICATE_TYPE.to_owned(),
            predicate,
        }
    }
}
