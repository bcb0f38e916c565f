//! Why a deploy or rollback is refused before anything changes upstream: each refusal
//! tells the operator what is wrong and what to do.

use serde::Serialize;

use crate::domain::check::Unmet;
use crate::domain::environment::EnvironmentName;

/// Why a deploy is refused before anything changes upstream.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
pub enum Refusal {
    #[error("Deploy refused: {0}. Enable the missing settings on the repository in Pulp, then try again.")]
    NotVerified(String),
    #[error("Deploy refused: version v{0} does not exist in this repository (reload the page).")]
    UnknownVersion(u64),
    #[error("Deploy refused: v{version} is already deployed to {environment}.")]
    AlreadyDeployed {
        version: u64,
        environment: EnvironmentName,
    },
    #[error("Deploy refused: the confirmation text does not match the repository name.")]
    ConfirmationMismatch,
    #[error("Deploy refused: say which version you expect the environment to serve now (expected_current: a version number, or null for none); it is the API's confirmation.")]
    ExpectedCurrentMissing,
    #[error("Deploy refused: {environment} moved since the preview (it served {seen}, it now serves {now}); someone else deployed meanwhile. Reload the page and check before deploying.")]
    ProductionMoved {
        environment: EnvironmentName,
        seen: String,
        now: String,
    },
    #[error("Deploy refused: v{version} never went through {skips}, and {environment} takes only versions {skips} has served (requires_previous). Deploy v{version} to {skips} first.")]
    OutOfOrder {
        version: u64,
        environment: EnvironmentName,
        skips: EnvironmentName,
    },
    #[error("Deploy refused: the console knows no {0} distribution for this repository. Name one under [environments.{0}] in the console's configuration (a distribution pattern with {{repo}}, or the repository under [environments.{0}.repos]).")]
    NoEnvironmentDistribution(EnvironmentName),
    #[error("Deploy refused: the console has no environment '{0}'. Choose one of the environments the versions page shows.")]
    UnknownEnvironment(String),
    #[error("Deploy refused. {0}")]
    NotAllowed(String),
    /// A deploy asked earlier (a schedule, an approved request) whose author could no longer
    /// ask it when it was to run: their token removed or expired, or the policy no longer
    /// allowing them.
    #[error("Deploy refused: it was asked by {author}, and their authority lapsed since: {why}. Nothing moved; whoever may deploy there now can ask again.")]
    AuthorityLapsed { author: String, why: String },
    #[error("Deploy refused: {environment} is frozen {until} ([policy.{environment}] freeze in the console's configuration). Deploy after that{}.", if *may_override { ", or override the freeze: you are listed in its override, tick \"Override the freeze\" and give a reason" } else { "" })]
    Frozen {
        environment: EnvironmentName,
        /// `until 2027-01-04T00:00:00Z`, and which window.
        until: String,
        /// Whether the operator refused may override the freeze (with a reason).
        may_override: bool,
    },
    /// The version has not soaked in the environment before (boxed: the largest refusal).
    #[error("{0}")]
    Soak(Box<SoakRefusal>),
    /// A rollback pinned the environment: automation and schedules do not move it (boxed:
    /// who pinned it, why and since when).
    #[error("{0}")]
    Pinned(Box<PinnedRefusal>),
    #[error("Deploy refused: a deploy to {0} needs approvals ([policy.{0}] approvals in the console's configuration), and a scheduled deploy runs only on its own: deploy now and ask for approval instead.")]
    ApprovalsNeeded(EnvironmentName),
    #[error("Deploy refused: v{version} has not passed the checks {environment} requires on {checked_in}: {unmet} ([policy.{environment}] required_checks). Report them passed on {checked_in} (POST /api/v1/checks), or, if you are listed in the environment's override, tick \"Override\" and give a reason (kept in the audit log).")]
    ChecksMissing {
        version: u64,
        environment: EnvironmentName,
        checked_in: EnvironmentName,
        unmet: Unmet,
    },
    #[error("Deploy refused: overriding the freeze, the soak or the required checks of {0} needs a reason (it is kept in the audit log).")]
    OverrideReasonMissing(EnvironmentName),
    #[error("Rollback refused: v{0} no longer exists in Pulp (Pulp deletes old versions beyond the repository's retain_repo_versions). Choose a version that still exists.")]
    RollbackTargetGone(u64),
    #[error("Rollback refused: {environment} never served v{version}, as far as its history tells (the console's audit lines and Pulp's changes of its distribution). A rollback goes back to a version it served; to move it forward, deploy v{version} instead.")]
    RollbackTargetNeverServed {
        version: u64,
        environment: EnvironmentName,
    },
    #[error("Rollback refused: a reason is required (say why production goes back).")]
    ReasonMissing,
    #[error("Deploy refused: the reason is longer than {0} characters; shorten it.")]
    ReasonTooLong(usize),
    #[error("Deploy refused: no production distribution is known for this repository. Name one in the console's configuration ([production] table: \"<repository name>\" = \"<distribution name>\"), or point a distribution at a publication of this repository in Pulp.")]
    NoProductionDistribution,
    #[error("Deploy refused: the configured distribution '{0}' does not exist in Pulp. Fix the console's configuration ([production], or the environment's entry under [environments]) or create the distribution.")]
    ConfiguredDistributionMissing(String),
}

/// A move refused because a rollback pinned the environment (`domain::pin`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("Deploy refused: {environment} is pinned to v{version} since {since} by {set_by}'s rollback ({reason}); automatic promotions and schedules do not move a pinned environment. Deploy by hand (its confirm step lifts the pin), or unpin it with a reason (the versions page, or POST /api/v1/repositories/<repository>/environments/{environment}/unpin).")]
pub struct PinnedRefusal {
    pub environment: EnvironmentName,
    /// The version the pin holds.
    pub version: u64,
    pub set_by: String,
    pub reason: String,
    /// When the rollback pinned it (RFC 3339).
    pub since: String,
}

/// A deploy refused because its version has not soaked in the environment before.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("Deploy refused: {environment} takes a version only once {previous} has served it for {soak} ([policy.{environment}] soak in the console's configuration); {}.", match until { Some(until) => format!("v{version} will have soaked at {until}: schedule the deploy for then, or deploy after that"), None => format!("{why}: deploy v{version} to {previous} first and let it soak") })]
pub struct SoakRefusal {
    pub environment: EnvironmentName,
    pub previous: EnvironmentName,
    pub version: u64,
    pub soak: String,
    /// When it will have soaked (RFC 3339), when known.
    pub until: Option<String>,
    /// Why it is not known, in words.
    pub why: String,
    /// Whether the operator refused may override it (the freeze's `override`, with a reason).
    pub may_override: bool,
}
