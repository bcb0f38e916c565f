//! The confirm step of a release promotion: each member's move (current -> target) with its
//! package and advisory changes (the same diff as a single deploy's, shared and computed
//! ahead like the rest), the advisories the environment gains and loses over the whole set,
//! and every member's warnings. A member that already serves its target stays.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::domain::deploy::DeployKind;
use crate::domain::diff::{ChangesOverSet, VersionDiff};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::release::Release;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::ports::UpstreamError;

use super::members::{members_of, Member};
use crate::app::deploy::{preview, Preview, PreviewError};
use crate::app::diffs::compare;
use crate::app::state::AppState;

/// One member in the confirm step.
#[derive(Debug)]
pub enum MemberPreview {
    /// It moves: its preview (refused when its own checks refuse it) and its changes.
    Moves {
        name: String,
        id: RepoId,
        target: VersionNumber,
        preview: Result<Box<Preview>, PreviewError>,
        changes: Option<Result<Arc<VersionDiff>, UpstreamError>>,
    },
    /// It serves its target already.
    Stays {
        name: String,
        serving: VersionNumber,
    },
    /// Pulp has no repository of that name.
    Unknown { name: String },
}

impl MemberPreview {
    pub fn name(&self) -> &str {
        match self {
            Self::Moves { name, .. } | Self::Stays { name, .. } | Self::Unknown { name } => name,
        }
    }

    /// Why this member keeps the release from being promoted, if it does.
    pub fn blocks(&self) -> Option<String> {
        match self {
            Self::Moves {
                preview: Err(e), ..
            } => Some(e.to_string()),
            Self::Unknown { name } => Some(format!("Pulp has no RPM repository named {name}")),
            _ => None,
        }
    }
}

/// What the confirm step shows.
#[derive(Debug)]
pub struct ReleasePreview {
    pub release: Release,
    pub environment: EnvironmentName,
    pub kind: DeployKind,
    pub members: Vec<MemberPreview>,
    /// What the environment gains and loses over every member.
    pub over_set: ChangesOverSet,
    /// Above 0, confirming records one request for the whole release.
    pub approvals_needed: u32,
}

impl ReleasePreview {
    /// The members that would move.
    pub fn moving(&self) -> impl Iterator<Item = &MemberPreview> {
        self.members
            .iter()
            .filter(|m| matches!(m, MemberPreview::Moves { .. }))
    }

    /// Whether the promotion can be confirmed: some member moves and none blocks it.
    pub fn promotable(&self) -> bool {
        self.moving().next().is_some() && self.members.iter().all(|m| m.blocks().is_none())
    }
}

/// The confirm step of promoting `versions` (one per member) of `release` to `environment`,
/// as `viewer` would (the preview of each member refuses what the deploy would).
pub async fn release_preview(
    state: &AppState,
    release: &Release,
    environment: &EnvironmentName,
    versions: &BTreeMap<String, VersionNumber>,
    kind: DeployKind,
    viewer: Option<&Operator>,
) -> Result<ReleasePreview, UpstreamError> {
    let members = members_of(state.reads.as_ref(), release).await?;
    let previews =
        futures::future::join_all(
            release.members().iter().map(|name| {
                let found = members.found.iter().find(|m| &m.name == name).cloned();
                let target = versions.get(name).copied();
                async move {
                    member_preview(state, name, found, target, environment, kind, viewer).await
                }
            }),
        )
        .await;
    let over_set = changes_over(&previews);
    Ok(ReleasePreview {
        release: release.clone(),
        environment: environment.clone(),
        kind,
        members: previews,
        over_set,
        approvals_needed: state.policy.approvals_needed(environment),
    })
}

async fn member_preview(
    state: &AppState,
    name: &str,
    member: Option<Member>,
    target: Option<VersionNumber>,
    environment: &EnvironmentName,
    kind: DeployKind,
    viewer: Option<&Operator>,
) -> MemberPreview {
    let Some(member) = member else {
        return MemberPreview::Unknown {
            name: name.to_owned(),
        };
    };
    let id = member.repo.id.clone();
    let Some(target) = target else {
        let refused = crate::domain::deploy::Refusal::NotAllowed(format!(
            "the set names no version of {name}"
        ));
        return MemberPreview::Moves {
            name: name.to_owned(),
            id,
            target: VersionNumber::new(0),
            preview: Err(PreviewError::Refused(refused)),
            changes: None,
        };
    };
    match preview(state, &id, environment, target, kind, viewer).await {
        Err(PreviewError::Refused(crate::domain::deploy::Refusal::AlreadyDeployed {
            version,
            ..
        })) => MemberPreview::Stays {
            name: name.to_owned(),
            serving: VersionNumber::new(version),
        },
        Ok(shown) => {
            let changes = compare::deploy_changes(state, &shown.plan).await;
            MemberPreview::Moves {
                name: name.to_owned(),
                id,
                target,
                preview: Ok(Box::new(shown)),
                changes: Some(changes),
            }
        }
        Err(error) => MemberPreview::Moves {
            name: name.to_owned(),
            id,
            target,
            preview: Err(error),
            changes: None,
        },
    }
}

/// What the set changes as a whole, over every member whose diff was read.
fn changes_over(members: &[MemberPreview]) -> ChangesOverSet {
    ChangesOverSet::of(members.iter().filter_map(|member| match member {
        MemberPreview::Moves {
            changes: Some(Ok(diff)),
            ..
        } => Some(diff.as_ref()),
        _ => None,
    }))
}
