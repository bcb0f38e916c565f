//! Why a deploy or rollback is refused before anything changes upstream: each refusal
//! tells the operator what is wrong and what to do.

use serde::Serialize;

/// Why a deploy is refused before anything changes upstream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum Refusal {
    #[error("Deploy refused: {0}. Enable the missing settings on the repository in Pulp, then try again.")]
    NotVerified(String),
    #[error("Deploy refused: version v{0} does not exist in this repository (reload the page).")]
    UnknownVersion(u64),
    #[error("Deploy refused: v{0} is already deployed to production.")]
    AlreadyDeployed(u64),
    #[error("Deploy refused: the confirmation text does not match the repository name.")]
    ConfirmationMismatch,
    #[error("Deploy refused: production moved since the preview (it served {seen}, it now serves {now}); someone else deployed meanwhile. Reload the page and check before deploying.")]
    ProductionMoved { seen: String, now: String },
    #[error("Rollback refused: v{0} no longer exists in Pulp (Pulp deletes old versions beyond the repository's retain_repo_versions). Choose a version that still exists.")]
    RollbackTargetGone(u64),
    #[error("Rollback refused: a reason is required (say why production goes back).")]
    ReasonMissing,
    #[error("Deploy refused: the reason is longer than {0} characters; shorten it.")]
    ReasonTooLong(usize),
    #[error("Deploy refused: no production distribution is known for this repository. Name one in the console's configuration ([production] table: \"<repository name>\" = \"<distribution name>\"), or point a distribution at a publication of this repository in Pulp.")]
    NoProductionDistribution,
    #[error("Deploy refused: the configured production distribution '{0}' does not exist in Pulp. Fix the [production] table in the console's configuration or create the distribution.")]
    ConfiguredDistributionMissing(String),
}
