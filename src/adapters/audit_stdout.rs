//! `StdoutAuditSink`: the same JSON lines on standard output, for container log collectors.

use std::io::Write;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::deploy::{DeployId, DeployRecord};
use crate::domain::ids::ReleaseName;
use crate::domain::release::ReleaseRecord;
use crate::domain::repository::RepoId;
use crate::ports::{AuditError, AuditReadError, AuditSink};

#[derive(Default)]
pub struct StdoutAuditSink {
    turn: tokio::sync::Mutex<()>,
}

fn error(reason: impl ToString) -> AuditError {
    AuditError {
        target: "standard output".into(),
        reason: reason.to_string(),
    }
}

impl StdoutAuditSink {
    async fn write_line(&self, mut line: Vec<u8>) -> Result<(), AuditError> {
        line.push(b'\n');
        let _turn = self.turn.lock().await;
        let mut out = std::io::stdout().lock();
        out.write_all(&line)
            .and_then(|()| out.flush())
            .map_err(error)
    }
}

#[async_trait]
impl AuditSink for StdoutAuditSink {
    async fn record(&self, record: &DeployRecord) -> Result<(), AuditError> {
        self.write_line(serde_json::to_vec(record).map_err(error)?)
            .await
    }

    async fn record_release(&self, record: &ReleaseRecord) -> Result<(), AuditError> {
        self.write_line(serde_json::to_vec(record).map_err(error)?)
            .await
    }

    async fn recent_releases(
        &self,
        _: &ReleaseName,
        _: usize,
    ) -> Result<Vec<ReleaseRecord>, AuditReadError> {
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    async fn check_writable(&self) -> Result<(), AuditError> {
        std::io::stdout().flush().map_err(error)
    }

    async fn lines_of(&self, _: &DeployId) -> Result<Vec<DeployRecord>, AuditReadError> {
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    async fn recent(&self, _: &RepoId, _: usize) -> Result<Vec<DeployRecord>, AuditReadError> {
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    async fn outcomes_since(
        &self,
        _: DateTime<Utc>,
        _: usize,
    ) -> Result<Vec<DeployRecord>, AuditReadError> {
        Err(AuditReadError::NotReadable {
            target: self.target(),
        })
    }

    fn target(&self) -> String {
        "standard output".into()
    }
}
