//! The upstream steps of a deploy, each answering truthfully whether production changed.

use crate::domain::deploy::{needs_reread, production_changed, ProductionChanged, Reread};
use crate::domain::repository::{Distribution, PublicationHref, TaskHref, VersionHref};
use crate::ports::{RepositoryManager, UpstreamError, WriteOutcome};

/// What stopped a deploy once it had started.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    /// A read the step needed failed.
    #[error(transparent)]
    Upstream(UpstreamError),
    /// Pulp refused the request: it did nothing.
    #[error("Pulp refused the request: {0}")]
    Refused(UpstreamError),
    /// Pulp accepted the request and its task ended without carrying it out.
    #[error("{0}")]
    TaskEnded(UpstreamError),
    /// Pulp may have accepted the publication request: it may still create the publication.
    #[error("{0}; Pulp may still create the publication (a publication serves nothing until a distribution points at it)")]
    PublishUnknown(UpstreamError),
    /// Pulp may have accepted the distribution update: it may still land.
    #[error("{0}; the update of the distribution may still land")]
    PointUnknown(UpstreamError),
    /// The production distribution no longer points where it did when the deploy was planned.
    #[error("production moved while this deploy ran (the distribution now points at {now}); another deploy happened meanwhile. Reload the page and check before deploying again")]
    ProductionMoved { now: String },
}

/// A failed step: what went wrong and what it means for production.
#[derive(Debug)]
pub struct StepFailure {
    pub error: StepError,
    pub production_changed: ProductionChanged,
    /// The publication, when it had been created before the failure.
    pub publication: Option<PublicationHref>,
    /// Pulp's task of the failed step, when Pulp named one: what an operator checks.
    pub task: Option<TaskHref>,
}

impl StepFailure {
    fn unchanged(error: StepError, publication: Option<&PublicationHref>) -> Self {
        Self {
            error,
            production_changed: ProductionChanged::No,
            publication: publication.cloned(),
            task: None,
        }
    }
}

/// The value of an applied change, or what stopped it and Pulp's task to check.
fn applied<T>(
    outcome: WriteOutcome<T>,
    unknown: fn(UpstreamError) -> StepError,
) -> Result<T, (StepError, Option<TaskHref>)> {
    match outcome {
        WriteOutcome::Applied(value) => Ok(value),
        WriteOutcome::Refused(error) => Err((StepError::Refused(error), None)),
        WriteOutcome::Failed { error, task } => Err((StepError::TaskEnded(error), Some(task))),
        WriteOutcome::Unknown { error, task } => Err((unknown(error), task)),
    }
}

/// Step 1: publish the version. Production is never changed by it.
pub async fn publish(
    manager: &dyn RepositoryManager,
    version: &VersionHref,
) -> Result<PublicationHref, StepFailure> {
    applied(manager.publish(version).await, StepError::PublishUnknown).map_err(|(error, task)| {
        StepFailure {
            task,
            ..StepFailure::unchanged(error, None)
        }
    })
}

/// Just before step 2: production must still point where it did when the deploy was
/// planned, so that two operators cannot silently overwrite each other.
pub async fn ensure_unmoved(
    manager: &dyn RepositoryManager,
    planned: &Distribution,
    publication: &PublicationHref,
) -> Result<(), StepFailure> {
    let now = manager
        .get_distribution(&planned.href)
        .await
        .map_err(|e| StepFailure::unchanged(StepError::Upstream(e), Some(publication)))?;
    if now.publication == planned.publication {
        return Ok(());
    }
    let now = now
        .publication
        .map_or_else(|| "no publication".to_owned(), |p| p.to_string());
    Err(StepFailure::unchanged(
        StepError::ProductionMoved { now },
        Some(publication),
    ))
}

/// Step 2: point the production distribution at the publication. When Pulp's answer does
/// not settle the outcome, the distribution is read again, and the domain's rule decides.
pub async fn point_production(
    manager: &dyn RepositoryManager,
    distribution: &Distribution,
    publication: &PublicationHref,
) -> Result<(), StepFailure> {
    let outcome = manager
        .point_distribution(&distribution.href, publication)
        .await;
    let verdict = outcome.verdict();
    let reread = if needs_reread(verdict) {
        reread(manager, distribution).await
    } else {
        Reread::Unreadable
    };
    let production_changed = production_changed(
        verdict,
        &reread,
        distribution.publication.as_ref(),
        publication,
    );
    let (error, task) = match applied(outcome, StepError::PointUnknown) {
        Ok(()) => return Ok(()),
        Err(failed) => failed,
    };
    Err(StepFailure {
        error,
        production_changed,
        publication: Some(publication.clone()),
        task,
    })
}

async fn reread(manager: &dyn RepositoryManager, distribution: &Distribution) -> Reread {
    match manager.get_distribution(&distribution.href).await {
        Ok(now) => Reread::Serves(now.publication),
        Err(error) => {
            tracing::warn!(%error, distribution = %distribution.name, "re-reading the production distribution failed");
            Reread::Unreadable
        }
    }
}
