//! What is recorded about production's changes: the console's audit lines read back and
//! upstream's record of the production distribution's changes. Bounded: the newest
//! [`AUDIT_LINES`] lines and one read of the newest [`UPSTREAM_CHANGES`] changes,
//! whatever the length of either record. To judge drift only, upstream's record is read
//! only when the audit lines hold a console change of production (a drift baseline):
//! without one nothing can be claimed, and a Pulp where the console never deployed pays
//! no call for it.

use crate::domain::{
    detect_drift, drift_baseline, DeployRecord, Distribution, DistributionChange, DistributionHref,
    Drift, RepoId,
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
    /// `Ok(empty)` when there is no production distribution, and in a record read to judge
    /// drift, when the audit lines hold no drift baseline.
    pub changes: Result<Vec<DistributionChange>, UpstreamError>,
}

impl ProductionRecord {
    /// Reads both at once: everything recorded (the history page).
    pub async fn read(state: &AppState, id: &RepoId, production: Option<&Distribution>) -> Self {
        let href = production.map(|d| d.href.clone());
        let (audit, changes) =
            futures::join!(audit_of(state, id), changes_of(state, href.as_ref()));
        Self { audit, changes }
    }

    /// What drift is judged on: the audit lines, then upstream's record when they hold a
    /// drift baseline.
    pub async fn read_for_drift(
        state: &AppState,
        id: &RepoId,
        production: Option<&Distribution>,
    ) -> Self {
        let audit = audit_of(state, id).await;
        let href = production.map(|d| d.href.clone());
        let changes = changes_for_drift(state, &audit, href.as_ref()).await;
        Self { audit, changes }
    }

    /// [`Self::read_for_drift`] before production is known, for the distribution production
    /// was last seen to be: at once with the rest of a page. [`EarlyRecord::settle`] then
    /// checks it.
    pub async fn read_early(state: &AppState, id: &RepoId) -> EarlyRecord {
        let audit = audit_of(state, id).await;
        let expected = state.seen_production.get(id);
        let changes = changes_for_drift(state, &audit, expected.as_ref()).await;
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
        let changes = changes_for_drift(state, &self.record.audit, actual.as_ref()).await;
        ProductionRecord {
            audit: self.record.audit,
            changes,
        }
    }
}

/// Upstream's record of `distribution` when these audit lines hold a drift baseline;
/// `Ok(empty)` without one (drift claims nothing then: see [`drift_baseline`]).
async fn changes_for_drift(
    state: &AppState,
    audit: &Result<Vec<DeployRecord>, AuditReadError>,
    distribution: Option<&DistributionHref>,
) -> Result<Vec<DistributionChange>, UpstreamError> {
    let judged = audit
        .as_deref()
        .is_ok_and(|records| drift_baseline(records).is_some());
    if !judged {
        return Ok(Vec::new());
    }
    changes_of(state, distribution).await
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
