//! The required checks a version has not passed, as a refusal names them.

use std::fmt;

use serde::Serialize;

use crate::domain::check::{CheckName, CheckState};

/// Required checks not passed, e.g. "smoke failed, e2e missing".
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unmet(pub Vec<(CheckName, CheckState)>);

impl fmt::Display for Unmet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self
            .0
            .iter()
            .map(|(name, state)| format!("{name} {}", state.as_str()))
            .collect();
        f.write_str(&words.join(", "))
    }
}
