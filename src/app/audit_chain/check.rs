//! The periodic check of the audit log's hash chain (see [`crate::domain::audit_chain`]):
//! every `audit.verify_interval_secs` the sink's logs are read from their first line; the
//! result is kept for `/readyz` and reported to the metrics. Each intact check's heads are
//! the next check's anchors, so lines cut from a log's end show too.

use std::future::Future;
use std::time::Duration;

use super::watch::LastCheck;
use crate::app::AppState;
use crate::ports::AuditReadError;

/// One check: the sink's logs read from their first line against the heads seen before;
/// kept, logged when broken, and reported to the metrics.
pub async fn check(state: &AppState) -> LastCheck {
    let watch = state.audit_chain();
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
