//! The audit sinks `audit.sink` can name. A new sink is one adapter file (implementing
//! [`crate::ports::AuditSink`]) plus one line in [`SINKS`].

use std::sync::Arc;

use crate::adapters::audit_jsonl::JsonlAuditSink;
use crate::adapters::audit_stdout::StdoutAuditSink;
use crate::ports::AuditSink;

use super::config::AuditSettings;

/// Builds a sink from the `[audit]` settings, or says why it cannot.
type Build = fn(&AuditSettings) -> Result<Arc<dyn AuditSink>, String>;

/// Every sink, by its name in `audit.sink`.
const SINKS: &[(&str, Build)] = &[
    ("jsonl", |audit| {
        Ok(Arc::new(JsonlAuditSink::new(&audit.path)))
    }),
    ("stdout", |_| Ok(Arc::new(StdoutAuditSink::default()))),
];

/// The names `audit.sink` accepts.
pub fn names() -> Vec<&'static str> {
    SINKS.iter().map(|(name, _)| *name).collect()
}

/// The sink the settings name.
pub fn build(audit: &AuditSettings) -> Result<Arc<dyn AuditSink>, String> {
    let (_, build) = SINKS
        .iter()
        .find(|(name, _)| *name == audit.sink)
        .ok_or_else(|| format!("no audit sink is named '{}'", audit.sink))?;
    build(audit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_named_sink_is_built_and_says_where_it_writes() {
        let jsonl = AuditSettings {
            sink: "jsonl".into(),
            path: "/var/log/console/audit.jsonl".into(),
        };
        assert_eq!(
            build(&jsonl).unwrap().target(),
            "/var/log/console/audit.jsonl"
        );
        let stdout = AuditSettings {
            sink: "stdout".into(),
            ..jsonl
        };
        assert_eq!(build(&stdout).unwrap().target(), "standard output");
        assert_eq!(names(), ["jsonl", "stdout"]);
    }
}
