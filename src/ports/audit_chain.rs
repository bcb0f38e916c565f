//! What a check of the audit log's hash chain found (see [`crate::domain::audit_chain`]):
//! per log a sink keeps (a file; each table of a database), intact or the first line that
//! breaks it.

use std::collections::HashMap;
use std::fmt;

use crate::domain::audit_chain::verify::{Anchor, ChainBreak, ChainSummary};

/// The heads an earlier check saw, by the name of their log (see [`ChainReport::log`]): a
/// check then also finds lines removed from a log's end.
pub type ChainAnchors = HashMap<String, Anchor>;

/// One log's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainReport {
    /// The log in words: the file's path, or the table (`deploy_audit`, `release_audit`).
    pub log: String,
    pub verdict: Result<ChainSummary, ChainBreak>,
}

impl ChainReport {
    pub fn is_intact(&self) -> bool {
        self.verdict.is_ok()
    }
}

impl fmt::Display for ChainReport {
    /// `line N (...)` first when broken, as the command prints it: the line number leads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.verdict {
            Ok(summary) => write!(f, "{}: {summary}", self.log),
            Err(broken) => write!(f, "{broken} in {}", self.log),
        }
    }
}
