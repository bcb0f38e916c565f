//! What is recorded about production's changes: the console's audit lines read back and
//! upstream's record of the production distribution's changes. Bounded: the newest
//! [`AUDIT_LINES`] lines and one read of the newest [`UPSTREAM_CHANGES`] changes,
//! whatever the length of either record.

use crate::domain::{
    detect_drift, DeployRecord, Distribution, DistributionChange, DistributionHref, Drift, RepoId,
};
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
        let href = production.map(|d| d.href.clone());
        let (audit, changes) =
            futures::join!(audit_of(state, id), changes_of(state, href.as_ref()));
        Self { audit, changes }
    }

    /// Reads both before production is known, for the distribution production was last
    /// seen to be: at once with the rest of a page. [`EarlyRecord::settle`] then checks it.
    pub async fn read_early(state: &AppState, id: &RepoId) -> EarlyRecord {
        let expected = state.seen_production.get(id);
        let (audit, changes) =
            futures::join!(audit_of(state, id), changes_of(state, expected.as_ref()));
        EarlyRecord {
            expected,
            record: Self { audit, changes },
        }
    }

    /// Drift of `production` (as read now), judged on what could be read: nothing is
    /// claimed without the audit lines; without upstream's record, only a moved publication.
    pub fn drift(&self, production: &Distribution) -> Option<Drift> {
        let records = self.audit.as_ref().ok()?;
        let changes = self.changes.as_deref().unwrap_or_default();
        detect_drift(records, changes, production.publication.as_ref())
    }
}

/// A record read for the distribution production was expected to be.
pub struct EarlyRecord {
    expected: Option<DistributionHref>,
    record: ProductionRecord,
}

impl EarlyRecord {
    /// The record of `production` as read now: the one read early when production is the
    /// expected distribution, else upstream's record read again for the right one.
    pub async fn settle(
        self,
        state: &AppState,
        id: &RepoId,
        production: Option<&Distribution>,
    ) -> ProductionRecord {
        let actual = production.map(|d| d.href.clone());
        state.seen_production.set(id, actual.clone());
        if actual == self.expected {
            return self.record;
        }
        ProductionRecord {
            audit: self.record.audit,
            changes: changes_of(state, actual.as_ref()).await,
        }
    }
}

/// Upstream's record of `distribution`; `Ok(empty)` when there is none.
async fn changes_of(
    state: &AppState,
    distribution: Option<&DistributionHref>,
) -> Result<Vec<DistributionChange>, UpstreamError> {
    let Some(href) = distribution else {
        return Ok(Vec::new());
    };
    let changes = state
        .reads
        .distribution_changes(href, UPSTREAM_CHANGES)
        .await;
    if let Err(error) = &changes {
        tracing::warn!(%error, "Pulp's record of the distribution's changes could not be read");
    }
    changes
}

/// The console's newest audit lines of repository `id`.
async fn audit_of(state: &AppState, id: &RepoId) -> Result<Vec<DeployRecord>, AuditReadError> {
    let audit = state.audit.recent(id, AUDIT_LINES).await;
    match &audit {
        // A write-only sink (stdout) is a configuration, not a failure.
        Err(AuditReadError::NotReadable { .. }) | Ok(_) => {}
        Err(error) => tracing::warn!(%error, "the audit log could not be read back"),
    }
    audit
}
