//! What is recorded about an environment's changes: the console's audit lines of that
//! environment read back and upstream's record of its distribution's changes. Bounded: the newest
//! [`AUDIT_LINES`] lines and one read of the newest [`UPSTREAM_CHANGES`] changes,
//! whatever the length of either record.
//!
//! To judge drift only, upstream's record is read only when the audit lines hold a console
//! change of production (a drift baseline: without one nothing can be claimed), and not
//! again while the distribution is unwritten since a whole record of it was read (see
//! [`crate::domain::repository::WholeRecord`]): a page then costs no call for it.

use crate::domain::deploy::DeployRecord;
use crate::domain::environment::EnvironmentName;
use crate::domain::history::{detect_drift, drift_baseline, Drift};
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, DistributionRevision, RepoId,
    VersionNumber, WholeRecord,
};
use crate::ports::{AuditReadError, UpstreamError};

use super::seen::Seen;
use crate::app::state::AppState;

/// Audit lines read back per repository (a deploy writes two).
pub const AUDIT_LINES: usize = 100;
/// Upstream changes of the production distribution read.
pub const UPSTREAM_CHANGES: u64 = 20;

type Audit = Result<Vec<DeployRecord>, AuditReadError>;
type Changes = Result<Vec<DistributionChange>, UpstreamError>;

/// The two records; each may have failed to be read on its own.
pub struct ProductionRecord {
    pub audit: Audit,
    /// `Ok(empty)` when there is no production distribution, and in a record read to judge
    /// drift, when the audit lines hold no drift baseline.
    pub changes: Changes,
}

impl ProductionRecord {
    /// Reads both at once: everything recorded (the history page).
    pub async fn read(
        state: &AppState,
        id: &RepoId,
        environment: &EnvironmentName,
        production: Option<&Distribution>,
    ) -> Self {
        let href = production.map(|d| d.href.clone());
        let (audit, changes) = futures::join!(
            audit_of(state, id, environment),
            changes_of(state, href.as_ref())
        );
        Self { audit, changes }
    }

    /// What drift of `production` (as read just before) is judged on: the audit lines, then
    /// upstream's record when they hold a drift baseline and none is kept whole.
    pub async fn read_for_drift(
        state: &AppState,
        id: &RepoId,
        environment: &EnvironmentName,
        production: Option<&Distribution>,
    ) -> Self {
        let audit = audit_of(state, id, environment).await;
        let changes = match production {
            Some(production) if has_baseline(&audit) => {
                let seen = state.seen().get(id, environment);
                kept_or_read(state, id, environment, seen.as_ref(), production).await
            }
            _ => Ok(Vec::new()),
        };
        Self { audit, changes }
    }

    /// [`Self::read_for_drift`] before production is known, at once with the rest of a
    /// page, for the distribution production was when last read (nothing is read when a
    /// record of it is kept whole at the revision last seen). [`EarlyRecord::settle`] then
    /// checks it against production as read.
    pub async fn read_early(
        state: &AppState,
        id: &RepoId,
        environment: &EnvironmentName,
    ) -> EarlyRecord {
        let audit = audit_of(state, id, environment).await;
        let early = match state.seen().get(id, environment) {
            _ if !has_baseline(&audit) => Early::NotNeeded,
            None => Early::NotRead,
            Some(seen) if seen.record_current() => Early::Kept(seen),
            Some(seen) => Early::Read {
                changes: changes_of(state, Some(&seen.distribution)).await,
                distribution: seen.distribution,
                revision: seen.revision,
            },
        };
        EarlyRecord {
            environment: environment.clone(),
            audit,
            early,
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

/// What was done about upstream's record before production was read.
enum Early {
    /// The audit lines hold no drift baseline: the record is not needed.
    NotNeeded,
    /// Production was not seen before: it is read once production is.
    NotRead,
    /// A record of production, whole at the revision last seen, is kept.
    Kept(Seen),
    /// Read for the distribution production was when last seen, at `revision` then.
    Read {
        distribution: DistributionHref,
        revision: Option<DistributionRevision>,
        changes: Changes,
    },
}

/// The audit lines, and what was done about upstream's record, before production was read.
pub struct EarlyRecord {
    environment: EnvironmentName,
    audit: Audit,
    early: Early,
}

impl EarlyRecord {
    /// The record of `production` as read now (serving version `serving` of the
    /// repository): the kept record while it is still whole, the one read early when
    /// production is the distribution it was read for, else upstream's record read now.
    pub async fn settle(
        self,
        state: &AppState,
        id: &RepoId,
        production: Option<&Distribution>,
        serving: Option<VersionNumber>,
    ) -> ProductionRecord {
        let environment = &self.environment;
        state.seen().saw(id, environment, production, serving);
        let changes = match (self.early, production) {
            (Early::NotNeeded, _) | (_, None) => Ok(Vec::new()),
            (Early::Kept(seen), Some(now)) => {
                kept_or_read(state, id, environment, Some(&seen), now).await
            }
            (
                Early::Read {
                    distribution,
                    revision,
                    changes,
                },
                Some(now),
            ) if distribution == now.href => {
                // Read after production was seen at `revision`.
                keep_whole(state, id, environment, &distribution, revision, &changes);
                changes
            }
            (Early::NotRead | Early::Read { .. }, Some(now)) => {
                read_after(state, id, environment, now).await
            }
        };
        ProductionRecord {
            audit: self.audit,
            changes,
        }
    }
}

/// Whether drift can be claimed on these audit lines (see [`drift_baseline`]).
fn has_baseline(audit: &Audit) -> bool {
    audit
        .as_deref()
        .is_ok_and(|records| drift_baseline(records).is_some())
}

/// The record kept of `production` (as read now) while it is still whole, else read now.
async fn kept_or_read(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    seen: Option<&Seen>,
    production: &Distribution,
) -> Changes {
    match seen.and_then(|s| s.record_of(production)) {
        Some(kept) => Ok(kept),
        None => read_after(state, id, environment, production).await,
    }
}

/// Upstream's record of `production`, read now that production was read (so it is kept
/// whole at the revision read, when nothing in it was under way).
async fn read_after(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    production: &Distribution,
) -> Changes {
    let changes = changes_of(state, Some(&production.href)).await;
    keep_whole(
        state,
        id,
        environment,
        &production.href,
        production.revision.clone(),
        &changes,
    );
    changes
}

/// Keeps `changes` of `distribution`, read after it was seen at `revision`, when whole.
fn keep_whole(
    state: &AppState,
    id: &RepoId,
    environment: &EnvironmentName,
    distribution: &DistributionHref,
    revision: Option<DistributionRevision>,
    changes: &Changes,
) {
    let (Some(revision), Ok(changes)) = (revision, changes) else {
        return;
    };
    if let Some(record) = WholeRecord::of(revision, changes) {
        state.seen().keep(id, environment, distribution, record);
    }
}

/// Upstream's record of `distribution`; `Ok(empty)` when there is none.
async fn changes_of(state: &AppState, distribution: Option<&DistributionHref>) -> Changes {
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

/// The console's newest audit lines of repository `id` in `environment`.
async fn audit_of(state: &AppState, id: &RepoId, environment: &EnvironmentName) -> Audit {
    let audit = state.audit.recent(id, AUDIT_LINES).await;
    match &audit {
        // A write-only sink (stdout) is a configuration, not a failure.
        Err(AuditReadError::NotReadable { .. }) | Ok(_) => {}
        Err(error) => tracing::warn!(%error, "the audit log could not be read back"),
    }
    audit.map(|records| of_environment(records, environment))
}

/// The lines of one environment.
pub fn of_environment(
    records: Vec<DeployRecord>,
    environment: &EnvironmentName,
) -> Vec<DeployRecord> {
    records
        .into_iter()
        .filter(|r| &r.environment == environment)
        .collect()
}
