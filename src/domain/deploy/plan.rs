//! Deployment rules: which version production serves, which distribution is production,
//! whether a deploy may go ahead, and what a failed deploy means for production.

use std::collections::HashMap;

use serde::Serialize;

use crate::domain::deploy::{refusal_for, Intent, PreviousServing, Refusal};
use crate::domain::environment::{EnvironmentName, PromotionCheck};
use crate::domain::repository::{
    Distribution, Publication, PublicationHref, RepoId, RepoVersion, Repository, UnsignedMetadata,
    VersionNumber,
};

/// The version production serves and through which distribution and publication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Deployed {
    pub number: VersionNumber,
    pub distribution: Distribution,
    pub publication: PublicationHref,
}

/// The spec's rule: walk the distributions in order; for each one with a publication,
/// look the publication up in `publications` (one that could not be fetched is absent:
/// that distribution is skipped); the first publication of a version of `repo` decides.
pub fn find_deployed(
    repo: &RepoId,
    distributions: &[Distribution],
    publications: &HashMap<PublicationHref, Publication>,
) -> Option<Deployed> {
    distributions.iter().find_map(|dist| {
        let href = dist.publication.as_ref()?;
        let publication = publications.get(href)?;
        if !publication.repository_version.belongs_to(repo) {
            return None;
        }
        Some(Deployed {
            number: publication.repository_version.number()?,
            distribution: dist.clone(),
            publication: href.clone(),
        })
    })
}

/// How the production distribution of a repository was chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ProductionTarget {
    /// Named for this repository in the console's configuration.
    Configured(Distribution),
    /// Not configured: the distribution that serves a version of this repository now.
    Serving(Distribution),
}

impl ProductionTarget {
    pub fn distribution(&self) -> &Distribution {
        match self {
            Self::Configured(d) | Self::Serving(d) => d,
        }
    }
}

/// Where production is for one repository, and what it serves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductionState {
    pub target: Result<ProductionTarget, Refusal>,
    /// The version production serves, when it serves one of this repository.
    pub deployed: Option<Deployed>,
}

/// The configured distribution when one is named (production is then what it serves),
/// else the spec's rule: the first distribution serving a version of this repository.
pub fn production_state(
    repo: &RepoId,
    configured: Option<&str>,
    distributions: &[Distribution],
    publications: &HashMap<PublicationHref, Publication>,
) -> ProductionState {
    match configured {
        Some(name) => match distributions.iter().find(|d| d.name == name) {
            Some(dist) => ProductionState {
                deployed: find_deployed(repo, std::slice::from_ref(dist), publications),
                target: Ok(ProductionTarget::Configured(dist.clone())),
            },
            None => ProductionState {
                target: Err(Refusal::ConfiguredDistributionMissing(name.to_owned())),
                deployed: None,
            },
        },
        None => {
            let deployed = find_deployed(repo, distributions, publications);
            let target = deployed
                .as_ref()
                .map(|d| ProductionTarget::Serving(d.distribution.clone()))
                .ok_or(Refusal::NoProductionDistribution);
            ProductionState { target, deployed }
        }
    }
}

/// Everything known about a repository when a deploy is planned.
#[derive(Debug, Clone)]
pub struct DeployFacts {
    pub repo: Repository,
    pub versions: Vec<RepoVersion>,
    /// The environment deployed to; `deployed` and `production` are its.
    pub environment: EnvironmentName,
    pub deployed: Option<Deployed>,
    pub production: Result<ProductionTarget, Refusal>,
    /// Whether the target keeps the path's order (see [`promotion_check`]).
    ///
    /// [`promotion_check`]: crate::domain::environment::promotion_check
    pub order: PromotionCheck,
    /// What the environment before serves, and since when (for its soak); `None` for the
    /// first environment.
    pub previous: Option<PreviousServing>,
    /// The policy's word on unsigned metadata in `environment`.
    pub unsigned_metadata: UnsignedMetadata,
}

/// What the operator asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeployRequest {
    pub target: VersionNumber,
    /// Where to: an environment of the path.
    pub environment: EnvironmentName,
    /// How the operator confirmed: the repository's name typed into the modal, or (a
    /// client of the API) the version it expects the environment to serve.
    pub confirm: Confirmation,
    /// What production served when the preview was shown.
    pub seen_live: SeenLive,
    /// A deploy, or a rollback with its reason.
    pub intent: Intent,
    /// The operator asks to deploy through the environment's freeze (allowed to those the
    /// policy lists in `override`, with the intent's reason).
    pub override_freeze: bool,
}

impl DeployRequest {
    /// The reason given to override a freeze, when an override is asked for ("" without
    /// one: refused).
    pub fn overriding(&self) -> Option<&str> {
        self.override_freeze
            .then(|| self.intent.reason().unwrap_or_default())
    }
}

/// How a deploy is confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// The text typed into the confirmation modal: the repository's name, exactly.
    Typed(String),
    /// The API's confirmation: the request names what it expects the environment to serve
    /// (`seen_live`, which is then required and compared-and-swapped).
    ExpectedCurrent,
}

impl From<&str> for Confirmation {
    fn from(typed: &str) -> Self {
        Self::Typed(typed.to_owned())
    }
}

impl From<String> for Confirmation {
    fn from(typed: String) -> Self {
        Self::Typed(typed)
    }
}

/// What production served when the operator's preview was shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeenLive {
    /// The client did not say (a script): no check.
    NotSent,
    Nothing,
    Version(VersionNumber),
}

impl SeenLive {
    pub fn of(current: Option<VersionNumber>) -> Self {
        current.map_or(Self::Nothing, Self::Version)
    }
}

/// Refuses when the environment moved since the preview (another operator deployed
/// meanwhile).
pub fn check_unmoved(
    environment: &EnvironmentName,
    current: Option<VersionNumber>,
    seen: SeenLive,
) -> Result<(), Refusal> {
    let label =
        |n: Option<VersionNumber>| n.map_or_else(|| "nothing".to_owned(), VersionNumber::label);
    let moved = |seen: Option<VersionNumber>| {
        Err(Refusal::ProductionMoved {
            environment: environment.clone(),
            seen: label(seen),
            now: label(current),
        })
    };
    match seen {
        SeenLive::NotSent => Ok(()),
        SeenLive::Nothing if current.is_none() => Ok(()),
        SeenLive::Version(v) if current == Some(v) => Ok(()),
        SeenLive::Nothing => moved(None),
        SeenLive::Version(v) => moved(Some(v)),
    }
}

/// A deploy that passed every precondition: what will change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeployPlan {
    pub repo: Repository,
    pub target: RepoVersion,
    pub current: Option<VersionNumber>,
    /// Package count of the target minus that of the current version (all of it when none).
    pub net_change: i64,
    /// The environment deployed to, and its distribution.
    pub environment: EnvironmentName,
    pub distribution: Distribution,
    /// Whether the target keeps the path's order (out of order: the confirm step warns).
    pub order: PromotionCheck,
}

impl DeployPlan {
    pub fn target_number(&self) -> VersionNumber {
        self.target.number().unwrap_or(VersionNumber::new(0))
    }

    /// The text the operator must type to confirm: the repository's displayed name.
    pub fn confirmation_text(&self) -> &str {
        self.repo.display_name()
    }
}

/// Checks every precondition of a deploy except the typed confirmation.
/// The order follows the spec: the verification gate first.
pub fn plan_deploy(facts: &DeployFacts, target: VersionNumber) -> Result<DeployPlan, Refusal> {
    if let Some(reason) = facts
        .repo
        .verification
        .gate_failure(facts.unsigned_metadata)
    {
        return Err(Refusal::NotVerified(reason));
    }
    let version = facts
        .versions
        .iter()
        .find(|v| v.number() == Some(target))
        .ok_or(Refusal::UnknownVersion(target.get()))?;
    let current = facts.deployed.as_ref().map(|d| d.number);
    if current == Some(target) {
        return Err(Refusal::AlreadyDeployed {
            version: target.get(),
            environment: facts.environment.clone(),
        });
    }
    let production = facts.production.clone()?;
    if let PromotionCheck::OutOfOrder {
        skips,
        refused: true,
    } = &facts.order
    {
        return Err(Refusal::OutOfOrder {
            version: target.get(),
            environment: facts.environment.clone(),
            skips: skips.clone(),
        });
    }
    let current_count = current
        .and_then(|n| facts.versions.iter().find(|v| v.number() == Some(n)))
        .map_or(0, |v| v.package_count);
    Ok(DeployPlan {
        repo: facts.repo.clone(),
        target: version.clone(),
        current,
        net_change: to_i64(version.package_count) - to_i64(current_count),
        environment: facts.environment.clone(),
        distribution: production.distribution().clone(),
        order: facts.order.clone(),
    })
}

/// Every precondition of a deploy request, in order: the plan (verification gate first),
/// that production did not move since the preview, then the typed confirmation.
pub fn check_request(facts: &DeployFacts, request: &DeployRequest) -> Result<DeployPlan, Refusal> {
    let plan =
        plan_deploy(facts, request.target).map_err(|refusal| {
            match (refusal_for(request.intent.kind(), refusal), request.seen_live) {
            // Production existed at preview time and is gone now: say that, not "configure one".
            (Refusal::NoProductionDistribution, SeenLive::Version(seen)) => {
                Refusal::ProductionMoved {
                    environment: request.environment.clone(),
                    seen: seen.label(),
                    now:
                        "nothing: no distribution serves this repository any more (was it deleted?)"
                            .to_owned(),
                }
            }
            (refusal, _) => refusal,
        }
        })?;
    check_unmoved(&plan.environment, plan.current, request.seen_live)?;
    match (&request.confirm, request.seen_live) {
        (Confirmation::Typed(typed), _) => check_confirmation(&plan, typed)?,
        (Confirmation::ExpectedCurrent, SeenLive::NotSent) => {
            return Err(Refusal::ExpectedCurrentMissing)
        }
        (Confirmation::ExpectedCurrent, _) => {}
    }
    Ok(plan)
}

/// The typed confirmation must equal the repository name exactly (no trimming, same case).
pub fn check_confirmation(plan: &DeployPlan, typed: &str) -> Result<(), Refusal> {
    if typed == plan.confirmation_text() {
        Ok(())
    } else {
        Err(Refusal::ConfirmationMismatch)
    }
}

fn to_i64(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Whether production changed, as far as the console can tell. It never guesses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProductionChanged {
    No,
    Yes,
    Unknown,
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod tests;
