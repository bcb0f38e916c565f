//! The upstream steps of a deploy, each answering truthfully whether production changed.

use crate::domain::{Distribution, ProductionChanged, PublicationHref, VersionHref};
use crate::ports::{RepositoryManager, UpstreamError};

/// What stopped a deploy once it had started.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error(transparent)]
    Upstream(#[from] UpstreamError),
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
}

impl StepFailure {
    fn unchanged(error: impl Into<StepError>, publication: Option<&PublicationHref>) -> Self {
        Self {
            error: error.into(),
            production_changed: ProductionChanged::No,
            publication: publication.cloned(),
        }
    }
}

/// Step 1: publish the version and wait for the task. Production is never changed by it.
pub async fn publish(
    manager: &dyn RepositoryManager,
    version: &VersionHref,
) -> Result<PublicationHref, StepFailure> {
    let task = manager
        .create_publication(version)
        .await
        .map_err(|e| StepFailure::unchanged(e, None))?;
    let finished = manager
        .wait_for_task(&task)
        .await
        .map_err(|e| StepFailure::unchanged(e, None))?;
    finished
        .created_resources
        .iter()
        .find(|href| href.contains("/publications/"))
        .map(PublicationHref::new)
        .ok_or_else(|| {
            let error = UpstreamError::BadResponse(format!(
                "the publish task {task} finished without naming a publication"
            ));
            StepFailure::unchanged(error, None)
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
        .map_err(|e| StepFailure::unchanged(e, Some(publication)))?;
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

/// Step 2: point the production distribution at the publication and wait for the task.
/// When the outcome is ambiguous, the distribution is read again to find out.
pub async fn point_production(
    manager: &dyn RepositoryManager,
    distribution: &Distribution,
    publication: &PublicationHref,
) -> Result<(), StepFailure> {
    let result = match manager
        .update_distribution(&distribution.href, publication)
        .await
    {
        Ok(task) => manager.wait_for_task(&task).await.map(drop),
        Err(error) => Err(error),
    };
    let Err(error) = result else { return Ok(()) };
    let production_changed = match manager.get_distribution(&distribution.href).await {
        Ok(now) if now.publication.as_ref() == Some(publication) => ProductionChanged::Yes,
        Ok(now) if now.publication == distribution.publication && error.certainly_not_applied() => {
            ProductionChanged::No
        }
        Err(_) | Ok(_) if error.certainly_not_applied() => ProductionChanged::No,
        _ => ProductionChanged::Unknown,
    };
    Err(StepFailure {
        error: error.into(),
        production_changed,
        publication: Some(publication.clone()),
    })
}
