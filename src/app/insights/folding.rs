//! The fold: the audit's outcome lines written since the last fold, each folded once into the
//! ledger with what it needs from outside the audit (its version's creation time in Pulp, its
//! request). A view never reads the audit from its start again: the
//! ledger keeps the position it has read to (a byte offset, a row id), and each version's
//! creation time is asked of Pulp once (a warm view asks Pulp nothing).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::app::insights::error::InsightsError;
use crate::app::parts::StatePart;
use crate::app::state::AppState;
use crate::domain::deploy::{AuditOutcome, DeployKind, DeployRecord};
use crate::domain::insights::{Ledger, LineFacts};
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::audit_sink::AuditPosition;
use crate::ports::UpstreamError;

/// Lines read from the audit at a time.
const SLICE: usize = 2_000;

/// What the fold keeps between views.
#[derive(Default)]
pub struct Folded {
    pub ledger: Ledger,
    /// Where the next fold starts reading the audit.
    pub position: AuditPosition,
    /// Each version's creation time in Pulp (`None`: Pulp no longer has it), by repository
    /// UUID and number.
    created: HashMap<(String, u64), Option<DateTime<Utc>>>,
}

/// The insights' part of the state: the fold, one at a time.
#[derive(Default)]
pub struct InsightsLedger(Arc<tokio::sync::Mutex<Folded>>);

/// A cache of the audit and of Pulp: a rebuilt state (another upstream) folds anew.
impl StatePart for InsightsLedger {
    const ANEW_ON_REBUILD: bool = true;
}

impl InsightsLedger {
    /// The fold, locked (one fold at a time; readers wait for it).
    pub async fn lock(&self) -> tokio::sync::OwnedMutexGuard<Folded> {
        self.0.clone().lock_owned().await
    }
}

impl AppState {
    pub fn insights_ledger(&self) -> Arc<InsightsLedger> {
        self.part()
    }
}

/// Folds every outcome line written since the last fold; answers the fold, still locked.
pub async fn catch_up(
    state: &AppState,
) -> Result<tokio::sync::OwnedMutexGuard<Folded>, InsightsError> {
    let mut folded = state.insights_ledger().lock().await;
    loop {
        let slice = state
            .audit
            .outcomes_after(folded.position, SLICE)
            .await
            .map_err(InsightsError::Audit)?;
        if slice.lines.is_empty() {
            folded.position = slice.next;
            return Ok(folded);
        }
        learn_creation_times(state, &mut folded, &slice.lines).await?;
        for line in &slice.lines {
            let facts = facts_of(state, &folded, line).await?;
            folded.ledger.fold(line, facts, &state.environments);
        }
        folded.position = slice.next;
    }
}

/// Asks Pulp, once per repository of the slice, the creation times of the versions deployed
/// whose time is not known yet.
async fn learn_creation_times(
    state: &AppState,
    folded: &mut Folded,
    lines: &[DeployRecord],
) -> Result<(), InsightsError> {
    let mut wanted: HashMap<String, BTreeSet<u64>> = HashMap::new();
    for line in lines {
        let deployed = line.outcome == AuditOutcome::Deployed && line.kind == DeployKind::Deploy;
        let key = (line.repository_uuid.clone(), line.target_version);
        if deployed && !folded.created.contains_key(&key) {
            wanted
                .entry(line.repository_uuid.clone())
                .or_default()
                .insert(line.target_version);
        }
    }
    let reads = wanted.into_iter().map(|(uuid, numbers)| async move {
        let found = match RepoId::parse(&uuid) {
            Ok(id) => {
                let numbers: Vec<VersionNumber> =
                    numbers.iter().copied().map(VersionNumber::new).collect();
                match state.reads.versions_numbered(&id, &numbers).await {
                    Ok(versions) => versions,
                    Err(UpstreamError::Http { status: 404, .. }) => Vec::new(),
                    Err(e) => return Err(InsightsError::Upstream(e)),
                }
            }
            Err(_) => Vec::new(),
        };
        let mut times: HashMap<u64, DateTime<Utc>> = found
            .into_iter()
            .filter_map(|v| Some((v.number()?.get(), v.created)))
            .collect();
        Ok(numbers
            .into_iter()
            .map(|n| ((uuid.clone(), n), times.remove(&n)))
            .collect::<Vec<_>>())
    });
    for known in futures::future::try_join_all(reads).await? {
        folded.created.extend(known);
    }
    Ok(())
}

/// What one line needs from outside the audit: its version's creation time (already
/// learnt) and the request it ran for (a `deployed` line only).
async fn facts_of(
    state: &AppState,
    folded: &Folded,
    line: &DeployRecord,
) -> Result<LineFacts, InsightsError> {
    if line.outcome != AuditOutcome::Deployed {
        return Ok(LineFacts::default());
    }
    let version_created = folded
        .created
        .get(&(line.repository_uuid.clone(), line.target_version))
        .copied()
        .flatten();
    let request = match (&line.request, &state.requests) {
        (Some(trail), Some(store)) => store
            .get(&trail.request_id)
            .await
            .map_err(|e| InsightsError::Store(e.to_string()))?,
        _ => None,
    };
    Ok(LineFacts {
        version_created,
        request,
    })
}
