//! The two upstream steps of a deploy, each answering truthfully whether production changed.

use crate::domain::{DistributionHref, ProductionChanged, PublicationHref, VersionHref};
use crate::ports::{RepositoryManager, UpstreamError};

/// A failed step: what went wrong and what it means for production.
#[derive(Debug)]
pub struct StepFailure {
    pub error: UpstreamError,
    pub production_changed: ProductionChanged,
    /// The publication, when it had been created before the failure.
    pub publication: Option<PublicationHref>,
}

/// Step 1: publish the version and wait for the task. Production is never changed by it.
pub async fn publish(
    manager: &dyn RepositoryManager,
    version: &VersionHref,
) -> Result<PublicationHref, StepFailure> {
    let unchanged = |error| StepFailure {
        error,
        production_changed: ProductionChanged::No,
        publication: None,
    };
    let task = manager
        .create_publication(version)
        .await
        .map_err(unchanged)?;
    let finished = manager.wait_for_task(&task).await.map_err(unchanged)?;
    finished
        .created_resources
        .iter()
        .find(|href| href.contains("/publications/"))
        .map(PublicationHref::new)
        .ok_or_else(|| {
            unchanged(UpstreamError::BadResponse(format!(
                "the publish task {task} finished without naming a publication"
            )))
        })
}

/// Step 2: point the production distribution at the publication and wait for the task.
/// When the outcome is ambiguous, the distribution is read again to find out.
pub async fn point_production(
    manager: &dyn RepositoryManager,
    distribution: &DistributionHref,
    publication: &PublicationHref,
) -> Result<(), StepFailure> {
    let result = match manager.update_distribution(distribution, publication).await {
        Ok(task) => manager.wait_for_task(&task).await.map(drop),
        Err(error) => Err(error),
    };
    let Err(error) = result else { return Ok(()) };
    let production_changed = match manager.get_distribution(distribution).await {
        Ok(now) if now.publication.as_ref() == Some(publication) => ProductionChanged::Yes,
        _ if error.certainly_not_applied() => ProductionChanged::No,
        _ => ProductionChanged::Unknown,
    };
    Err(StepFailure {
        error,
        production_changed,
        publication: Some(publication.clone()),
    })
}
