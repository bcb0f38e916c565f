//! Unpinning: someone who may deploy to the environment lifts its pin with a reason, so that
//! automatic promotions and schedules move it again. Kept in the pin store and told
//! (`pin.lifted`, `how: unpin`).

use crate::domain::deploy::{Reason, Refusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::pin::{Lift, LiftedBy};
use crate::domain::repository::RepoId;
use crate::ports::PinStoreError;

use crate::app::pins::{holding, keep};
use crate::app::state::AppState;

/// Why a pin was not lifted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotUnpinned {
    #[error("Unpin refused: the console has no environment '{0}'. Choose one of the environments the versions page shows.")]
    UnknownEnvironment(String),
    /// Only those who may deploy to the environment may unpin it.
    #[error("Unpin refused: only those who may deploy to {environment} may unpin it. {why}")]
    NotAllowed {
        environment: EnvironmentName,
        why: String,
    },
    /// The reason is missing or too long.
    #[error("Unpin refused: {0}")]
    Reason(Refusal),
    #[error("Unpin refused: {0} is not pinned (nothing to lift). Reload the page.")]
    NotPinned(EnvironmentName),
    #[error("Unpin refused: {0}. Fix the pin store (kept beside the requests) first.")]
    Store(#[from] PinStoreError),
}

/// Lifts the pin on `repo` in the environment named `environment`, as `operator` asks for
/// `reason`; answers the lift kept.
pub async fn unpin(
    state: &AppState,
    repo: &RepoId,
    environment: &str,
    operator: &Operator,
    reason: &str,
) -> Result<Lift, NotUnpinned> {
    let environment = state
        .environments
        .find(environment)
        .map(|e| e.name.clone())
        .ok_or_else(|| NotUnpinned::UnknownEnvironment(environment.chars().take(64).collect()))?;
    if let Err(denied) = state.policy.may_deploy(&environment, operator) {
        tracing::warn!(%environment, %operator, "unpin refused by the policy");
        return Err(NotUnpinned::NotAllowed {
            environment,
            why: denied.to_string(),
        });
    }
    let reason = Reason::parse(reason).map_err(NotUnpinned::Reason)?;
    let pin = holding(state, repo, &environment)
        .await?
        .ok_or_else(|| NotUnpinned::NotPinned(environment.clone()))?;
    let lift = Lift {
        repository: pin.repository,
        repository_name: pin.repository_name,
        environment,
        version: pin.version,
        by: operator.as_str().to_owned(),
        reason: reason.as_str().to_owned(),
        at: state.clock.now().await,
        how: LiftedBy::Unpin,
    };
    keep::lift(state, lift.clone()).await?;
    Ok(lift)
}
