//! What is recorded about production's changes: the console's audit lines read back and
//! upstream's record of the production distribution's changes. Bounded: the newest
//! [`AUDIT_LINES`] lines and one read of the newest [`UPSTREAM_CHANGES`] changes,
//! whatever the length of either record.

use crate::domain::{detect_drift, DeployRecord, Distribution, DistributionChange, Drift, RepoId};
use crate::ports::{AuditReadError, UpstreamError};

use super::state::AppState;

/// Audit lines read back per repository (a deploy writes two).
pub const AUDIT_LINES: usize = 100;
/// Upstream changes of the production distribution read.
pub const UPSTREAM_CHANGES: u64 = 20;

/// The two records; each may have failed to be read on its own.
pub struct ProductionRecord {
    pub audit: Result<Vec<DeployRecord>, AuditReadError>,
    /// `Ok(empty)` when there is no production distribution.
    pub changes: Result<Vec<DistributionChange>, UpstreamError>,
}

impl ProductionRecord {
    /// Reads both at once.
    pub async fn read(state: &AppState, id: &RepoId, production: Option<&Distribution>) -> Self {
        let changes = async {
            match production {
                Some(dist) => {
                    state
                        .reads
                        .distribution_changes(&dist.href, UPSTREAM_CHANGES)
                        .await
                }
                None => Ok(Vec::new()),
            }
        };
        let (audit, changes) = futures::join!(state.audit.recent(id, AUDIT_LINES), changes);
        match &audit {
            // A write-only sink (stdout) is a configuration, not a failure.
            Err(AuditReadError::NotReadable { .. }) => {}
            Err(error) => tracing::warn!(%error, "the audit log could not be read back"),
            Ok(_) => {}
        }
        if let Err(error) = &changes {
            tracing::warn!(%error, "Pulp's record of the distribution's changes could not be read");
        }
        Self { audit, changes }
    }

    /// Drift of `production` (as read now), judged on what could be read: nothing is
    /// claimed without the audit lines; without upstream's record, only a moved publication.
    pub fn drift(&self, production: &Distribution) -> Option<Drift> {
        let records = self.audit.as_ref().ok()?;
        let changes = self.changes.as_deref().unwrap_or_default();
        detect_drift(records, changes, production.publication.as_ref())
    }
}
