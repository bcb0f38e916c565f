//! `repo-console audit verify`: the hash chain of the configured audit sink (or of a file
//! named with `--path`) checked from its first line, each log's verdict printed, and the
//! exit status an auditor's script reads (see [`Verdict::exit_code`]).

use std::path::PathBuf;

use crate::adapters::files::audit::JsonlAuditSink;
use crate::domain::audit_chain::verify::Anchor;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};
use crate::ports::AuditSink;
use crate::wiring::config::Config;

/// What to check.
pub struct VerifyAudit {
    /// A JSON Lines file (the configured sink otherwise).
    pub path: Option<PathBuf>,
    /// Heads an earlier check printed, as `[LOG=]LINE:SHA256` (the log's name may be left out
    /// when the sink keeps one log).
    pub heads: Vec<String>,
}

/// The checks' outcome: what to print and how the command exits.
pub enum Verdict {
    /// Every log is intact.
    Intact(Vec<ChainReport>),
    /// At least one log breaks its chain.
    Broken(Vec<ChainReport>),
}

impl Verdict {
    /// 0 intact, 1 a chain is broken (the check itself failing is 2, said by the caller).
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Intact(_) => 0,
            Self::Broken(_) => 1,
        }
    }

    /// One line per log; a broken one starts with `line N`.
    pub fn lines(&self) -> Vec<String> {
        let (Self::Intact(reports) | Self::Broken(reports)) = self;
        reports.iter().map(ToString::to_string).collect()
    }
}

/// Checks the file at `path`, or the sink `config` names (`config` is read only then).
pub async fn verify(
    check: &VerifyAudit,
    config: impl FnOnce() -> Result<Config, String>,
) -> Result<Verdict, String> {
    let sink: std::sync::Arc<dyn AuditSink> = match &check.path {
        Some(path) => {
            if !path.is_file() {
                return Err(format!(
                    "{}: no such file (name the audit log, e.g. /var/lib/repo-console/audit.jsonl)",
                    path.display()
                ));
            }
            std::sync::Arc::new(JsonlAuditSink::new(path))
        }
        None => {
            let config = config()?;
            crate::wiring::audit_sinks::build(&config.audit, &config.diffs)
                .await?
                .sink
        }
    };
    let anchors = anchors(&check.heads, &sink.target())?;
    let reports = sink
        .verify_chain(&anchors)
        .await
        .map_err(|e| e.to_string())?;
    Ok(if reports.iter().all(ChainReport::is_intact) {
        Verdict::Intact(reports)
    } else {
        Verdict::Broken(reports)
    })
}

/// The heads given, by log: `LOG=LINE:SHA256`, or `LINE:SHA256` for the sink's one log
/// (`target`, a file's path).
fn anchors(heads: &[String], target: &str) -> Result<ChainAnchors, String> {
    heads
        .iter()
        .map(|head| {
            let (log, anchor) = match head.rsplit_once('=') {
                Some((log, anchor)) => (log.to_owned(), anchor),
                None => (target.to_owned(), head.as_str()),
            };
            let anchor: Anchor = anchor.parse().map_err(|e| format!("--head {head}: {e}"))?;
            Ok((log, anchor))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_names_its_log_or_the_sinks_one_log() {
        let hash = "a".repeat(64);
        let anchors = anchors(
            &[format!("12:{hash}"), format!("release_audit=3:{hash}")],
            "/var/audit.jsonl",
        )
        .unwrap();
        assert_eq!(anchors["/var/audit.jsonl"].line, 12);
        assert_eq!(anchors["release_audit"].line, 3);
        let refused = super::anchors(&["12".to_owned()], "f").unwrap_err();
        assert!(refused.starts_with("--head 12:"), "{refused}");
    }
}
