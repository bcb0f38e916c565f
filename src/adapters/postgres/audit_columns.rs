//! The columns an audit table copies from each row's line (`deploy_audit`'s deploy id,
//! time, operator, repository, versions, outcome...; `release_audit`'s release, time and
//! environment): readers filter and order by them, so the chain covers them too. The line is
//! the record; each column must say what the line says, read back as text (a time to the
//! millisecond, as the line writes it). A row whose columns were changed, its line left
//! intact, is reported as changed at its line.

use chrono::SecondsFormat;

use crate::domain::deploy::{AuditOutcome, DeployRecord, ProductionChanged};
use crate::domain::release::ReleaseRecord;

/// A chained table: its name, its copied columns as SQL reads them as text, and what a line
/// says they hold (`None`: the line does not read as the table's record, which the chain
/// judges).
pub(super) struct ChainedTable {
    pub name: &'static str,
    /// `(column, SQL expression reading it as text)`.
    pub columns: &'static [(&'static str, &'static str)],
    pub said: fn(&str) -> Option<Vec<Option<String>>>,
}

/// A `timestamptz` column as the lines write a time: RFC 3339, UTC, milliseconds.
macro_rules! millis {
    ($column:literal) => {
        concat!(
            "to_char(",
            $column,
            " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
        )
    };
}

pub(super) const DEPLOY_AUDIT: ChainedTable = ChainedTable {
    name: "deploy_audit",
    columns: &[
        ("deploy_id", "deploy_id"),
        ("recorded_at", millis!("recorded_at")),
        ("operator", "operator"),
        ("repository_uuid", "repository_uuid"),
        ("repository_name", "repository_name"),
        ("previous_version", "previous_version::text"),
        ("target_version", "target_version::text"),
        ("distribution", "distribution"),
        ("publication", "publication"),
        ("outcome", "outcome"),
        ("production_changed", "production_changed"),
        ("error", "error"),
    ],
    said: deploy_said,
};

pub(super) const RELEASE_AUDIT: ChainedTable = ChainedTable {
    name: "release_audit",
    columns: &[
        ("release_id", "release_id"),
        ("release_name", "release_name"),
        ("recorded_at", millis!("recorded_at")),
        ("environment", "environment"),
    ],
    said: release_said,
};

impl ChainedTable {
    /// Every row's line then its copied columns, in the chain's order.
    pub fn select(&self) -> String {
        let columns: Vec<&str> = self.columns.iter().map(|(_, read)| *read).collect();
        format!(
            "SELECT line, {} FROM {} ORDER BY id",
            columns.join(", "),
            self.name
        )
    }

    /// The copied columns whose value is not what `line` says (empty: they agree, or the line
    /// does not read as a record).
    pub fn disagreeing(&self, line: &str, held: &[Option<String>]) -> Vec<String> {
        let Some(said) = (self.said)(line) else {
            return Vec::new();
        };
        self.columns
            .iter()
            .zip(said.iter().zip(held))
            .filter(|(_, (said, held))| said != held)
            .map(|((column, _), _)| (*column).to_owned())
            .collect()
    }
}

fn millis(at: &chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn deploy_said(line: &str) -> Option<Vec<Option<String>>> {
    let record: DeployRecord = serde_json::from_str(line).ok()?;
    let (outcome, changed, error) = columns_of(&record.outcome);
    Some(vec![
        Some(record.deploy_id.as_str().to_owned()),
        Some(millis(&record.timestamp)),
        Some(record.operator.clone()),
        Some(record.repository_uuid.clone()),
        Some(record.repository_name.clone()),
        record.previous_version.map(|v| v.to_string()),
        Some(record.target_version.to_string()),
        Some(record.distribution.clone()),
        record.publication.as_ref().map(ToString::to_string),
        Some(outcome.to_owned()),
        changed.map(str::to_owned),
        error.map(str::to_owned),
    ])
}

fn release_said(line: &str) -> Option<Vec<Option<String>>> {
    let record: ReleaseRecord = serde_json::from_str(line).ok()?;
    Some(vec![
        Some(record.release.id.as_str().to_owned()),
        Some(record.release.name.as_str().to_owned()),
        Some(millis(&record.timestamp)),
        Some(record.environment.as_str().to_owned()),
    ])
}

/// The outcome's columns: `outcome`, `production_changed` and `error`, as a row is written.
pub(super) fn columns_of(
    outcome: &AuditOutcome,
) -> (&'static str, Option<&'static str>, Option<&str>) {
    match outcome {
        AuditOutcome::Started => ("started", None, None),
        AuditOutcome::Deployed => ("deployed", None, None),
        AuditOutcome::Failed {
            production_changed,
            error,
        } => (
            "failed",
            Some(changed_text(*production_changed)),
            Some(error),
        ),
    }
}

fn changed_text(changed: ProductionChanged) -> &'static str {
    match changed {
        ProductionChanged::Yes => "yes",
        ProductionChanged::No => "no",
        ProductionChanged::Unknown => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINE: &str = r#"{"deploy_id":"d1","timestamp":"2026-11-20T08:01:00.123Z","operator":"alice","repository_uuid":"u","repository_name":"base-os","previous_version":3,"target_version":4,"environment":"production","distribution":"base-os-prod","publication":null,"kind":"deploy","reason":null,"outcome":"deployed"}"#;

    fn held(operator: &str, outcome: &str) -> Vec<Option<String>> {
        [
            Some("d1"),
            Some("2026-11-20T08:01:00.123Z"),
            Some(operator),
            Some("u"),
            Some("base-os"),
            Some("3"),
            Some("4"),
            Some("base-os-prod"),
            None,
            Some(outcome),
            None,
            None,
        ]
        .iter()
        .map(|v| v.map(str::to_owned))
        .collect()
    }

    #[test]
    fn columns_that_say_what_the_line_says_agree() {
        assert!(DEPLOY_AUDIT
            .disagreeing(LINE, &held("alice", "deployed"))
            .is_empty());
    }

    #[test]
    fn each_changed_column_is_named() {
        assert_eq!(
            DEPLOY_AUDIT.disagreeing(LINE, &held("mallory", "started")),
            ["operator", "outcome"]
        );
    }

    #[test]
    fn a_line_that_is_no_record_is_left_to_the_chain() {
        assert!(DEPLOY_AUDIT
            .disagreeing("not json", &held("mallory", "started"))
            .is_empty());
    }
}
