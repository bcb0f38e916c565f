//! One check report: `smoke` passed (or failed) on version 7 of a repository in staging,
//! reported by whom and when, with a link to the run. The latest report of a check (same
//! repository, environment, version and name) is the one that counts.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::environment::EnvironmentName;

/// The longest check name accepted.
const MAX_NAME_LEN: usize = 64;

/// The longest link to a run kept.
pub const MAX_URL_LEN: usize = 2048;

/// A check's name: 1 to 64 lowercase ASCII letters, digits, '-', '_' and '.' (it appears in
/// configuration, URLs and HTML attributes as it is).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct CheckName(String);

/// Why a text is not a check's name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a check name: 1 to {MAX_NAME_LEN} lowercase letters, digits, '-', '_' or '.', e.g. \"smoke\"")]
pub struct InvalidCheckName(pub String);

impl CheckName {
    pub fn parse(text: &str) -> Result<Self, InvalidCheckName> {
        let allowed = |c: char| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_' || c == '.'
        };
        if text.is_empty() || text.len() > MAX_NAME_LEN || !text.chars().all(allowed) {
            return Err(InvalidCheckName(text.to_owned()));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for CheckName {
    type Error = InvalidCheckName;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<CheckName> for String {
    fn from(name: CheckName) -> Self {
        name.0
    }
}

impl fmt::Display for CheckName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A link to the run a check reports: an http(s) URL, at most [`MAX_URL_LEN`] bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RunUrl(String);

/// Why a text is not a link to a run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the url is not an http:// or https:// link of at most {MAX_URL_LEN} characters without spaces"
)]
pub struct InvalidRunUrl;

impl RunUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidRunUrl> {
        let text = text.trim();
        let scheme = text.starts_with("https://") || text.starts_with("http://");
        let clean = !text.chars().any(|c| c.is_whitespace() || c.is_control());
        if !scheme || !clean || text.len() > MAX_URL_LEN {
            return Err(InvalidRunUrl);
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for RunUrl {
    type Error = InvalidRunUrl;
    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<RunUrl> for String {
    fn from(url: RunUrl) -> Self {
        url.0
    }
}

/// What one report of a check is about: the latest report under the same key counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CheckKey {
    pub repository_uuid: String,
    pub environment: EnvironmentName,
    pub version: u64,
    pub name: CheckName,
}

/// An automatic promotion: `version` of a repository to `environment`. Claimed once in the
/// check store (by one replica, for one report), so that it is made once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PromotionKey {
    pub repository_uuid: String,
    pub environment: EnvironmentName,
    pub version: u64,
}

/// A check's report, as kept (and audited: every report is kept, the latest counts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckReport {
    #[serde(flatten)]
    pub key: CheckKey,
    pub repository_name: String,
    pub passed: bool,
    /// The run's page, when the pipeline gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<RunUrl>,
    /// Who reported it (the API token's name).
    pub reporter: String,
    pub at: DateTime<Utc>,
}

impl CheckReport {
    /// `passed` or `failed`, as pages and the API say it.
    pub fn state(&self) -> CheckState {
        if self.passed {
            CheckState::Passed
        } else {
            CheckState::Failed
        }
    }
}

/// Where a required check stands for one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckState {
    Passed,
    Failed,
    /// Never reported.
    Missing,
}

impl CheckState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Passed => "passed",
            Self::Failed => "failed",
            Self::Missing => "missing",
        }
    }
}

/// The latest report of each key among `reports` (in any order), ordered by key.
pub fn latest_of(reports: impl IntoIterator<Item = CheckReport>) -> Vec<CheckReport> {
    let mut latest: std::collections::BTreeMap<CheckKey, CheckReport> = Default::default();
    for report in reports {
        match latest.get(&report.key) {
            Some(kept) if kept.at > report.at => {}
            _ => {
                latest.insert(report.key.clone(), report);
            }
        }
    }
    latest.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn report(
        env: &str,
        version: u64,
        name: &str,
        passed: bool,
        minute: u32,
    ) -> CheckReport {
        CheckReport {
            key: CheckKey {
                repository_uuid: "0199a1b2-0000-7000-8000-0000000000aa".into(),
                environment: EnvironmentName::parse(env).unwrap(),
                version,
                name: CheckName::parse(name).unwrap(),
            },
            repository_name: "base-os".into(),
            passed,
            url: None,
            reporter: "ci".into(),
            at: DateTime::parse_from_rfc3339(&format!("2026-12-01T10:{minute:02}:00Z"))
                .unwrap()
                .into(),
        }
    }

    #[test]
    fn names_and_links_are_checked() {
        assert!(CheckName::parse("smoke").is_ok());
        assert!(CheckName::parse("e2e.db-v2_x").is_ok());
        for bad in ["", "Smoke", "a b", "ü", &"x".repeat(65)] {
            assert!(CheckName::parse(bad).is_err(), "{bad:?}");
        }
        assert!(RunUrl::parse("https://ci.example.com/runs/1").is_ok());
        for bad in ["ftp://x", "javascript:alert(1)", "https://a b", ""] {
            assert!(RunUrl::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_later_report_of_the_same_check_replaces_the_earlier() {
        let reports = vec![
            report("staging", 7, "smoke", false, 1),
            report("staging", 7, "smoke", true, 2),
            report("staging", 7, "e2e", false, 0),
            report("staging", 6, "smoke", true, 0),
        ];
        let latest = latest_of(reports.clone());
        assert_eq!(latest.len(), 3);
        let smoke7 = latest
            .iter()
            .find(|r| r.key.version == 7 && r.key.name.as_str() == "smoke")
            .unwrap();
        assert!(smoke7.passed);
        let reversed = latest_of(reports.into_iter().rev());
        assert_eq!(reversed, latest, "by time, not by the order read");
    }
}
