//! The audit sink port: where deployment records go.

use async_trait::async_trait;

use crate::domain::DeployRecord;

/// Why an audit record could not be kept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the audit log could not be written ({target}): {reason}")]
pub struct AuditError {
    /// Where the sink writes (a path, "standard output").
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait AuditSink: Send + Sync {
    /// Appends one record durably: when this returns `Ok`, the record is stored.
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError>;

    /// Checks, without writing a record, that a record could be written now.
    async fn check_writable(&self) -> Result<(), AuditError>;

    /// Where the records go, in words (a path, "standard output"), for logs and messages.
    fn target(&self) -> String;
}
