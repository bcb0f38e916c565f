//! The periodic check of the audit log's hash chain (see [`crate::domain::audit_chain`]):
//! every `audit.verify_interval_secs` the sink's logs are read from their first line; the
//! result is kept for `/readyz` and reported to the metrics. Each intact check's heads are
//! the next check's anchors, so lines cut from a log's end show too.

use std::future::Future;
use std::sync::Mutex;
use std::time::Duration;

use crate::app::AppState;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};
use crate::ports::AuditReadError;

/// What the last check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LastCheck {
    /// Each log's verdict.
    Checked(Vec<ChainReport>),
    /// The sink could not be read (said, not a break).
    NotChecked(String),
}

/// The last check and the heads it saw, shared by the worker and `/readyz`.
#[derive(Default)]
pub struct ChainWatch {
    last: Mutex<Option<LastCheck>>,
    anchors: Mutex<ChainAnchors>,
}

impl ChainWatch {
    /// The last check's result; `None` before the first.
    pub fn last(&self) -> Option<LastCheck> {
        self.last.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// What needs an operator's attention: each broken log, as the command prints it.
    pub fn attention(&self) -> Option<String> {
        let Some(LastCheck::Checked(reports)) = self.last() else {
            return None;
        };
        let broken: Vec<String> = reports
            .iter()
            .filter(|r| !r.is_intact())
            .map(ToString::to_string)
            .collect();
        (!broken.is_empty()).then(|| {
            format!(
                "the audit log's hash chain is broken: {} (run `repo-console audit verify`)",
                broken.join("; ")
            )
        })
    }

    fn keep(&self, check: LastCheck) {
        if let LastCheck::Checked(reports) = &check {
            let mut anchors = self.anchors.lock().unwrap_or_else(|p| p.into_inner());
            for report in reports {
                if let Ok(summary) = &report.verdict {
                    if let Some(head) = &summary.head {
                        anchors.insert(report.log.clone(), head.clone());
                    }
                }
            }
        }
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(check);
    }

    fn anchors(&self) -> ChainAnchors {
        self.anchors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// One check: the sink's logs read from their first line against the heads seen before;
/// kept, logged when broken, and reported to the metrics.
pub async fn check(state: &AppState) -> LastCheck {
    let watch = &state.audit_chain;
    let check = match state.audit.verify_chain(&watch.anchors()).await {
        Ok(reports) => {
            for broken in reports.iter().filter(|r| !r.is_intact()) {
                tracing::error!(verdict = %broken, "the audit log's hash chain is broken");
            }
            state.metrics.audit_chain_checked(&reports);
            LastCheck::Checked(reports)
        }
        // A sink written to standard output is checked where its lines are collected.
        Err(AuditReadError::NotReadable { target }) => {
            LastCheck::NotChecked(format!("the audit log is written to {target}"))
        }
        Err(error) => {
            tracing::warn!(%error, "the audit log's hash chain could not be checked");
            LastCheck::NotChecked(error.to_string())
        }
    };
    watch.keep(check.clone());
    check
}

/// Checks every `every` (zero: never) until `stop`.
pub async fn work(state: AppState, every: Duration, stop: impl Future<Output = ()>) {
    if every.is_zero() {
        return;
    }
    let checking = async {
        loop {
            check(&state).await;
            tokio::time::sleep(every).await;
        }
    };
    tokio::select! {
        () = stop => tracing::debug!("the audit chain check stopped"),
        () = checking => {}
    }
}
