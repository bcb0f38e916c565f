//! What the release page shows: every member in every environment (the version it serves),
//! the set each environment would receive, drift against the release's last promotion there,
//! and the release's promotions, newest first. Every member is read at once, each in two
//! rounds whatever its number of versions: the repository by name together with the
//! distributions its environments may be (by the same name), then the publications they
//! serve; the release's audit lines meanwhile.

use std::collections::BTreeMap;

use crate::domain::environment::EnvironmentName;
use crate::domain::release::{
    proposed_set, release_drift, MemberDrift, ProposedSet, Release, ReleaseRecord,
};
use crate::domain::repository::VersionNumber;
use crate::ports::{AuditReadError, RepositoryManager, UpstreamError};

use super::members::Member;
use crate::app::environments::{candidates, environments_of, EnvironmentState};
use crate::app::state::AppState;

/// How many of the release's promotions the page lists.
pub const PROMOTIONS_SHOWN: usize = 20;

/// One member as the page shows it.
#[derive(Debug, Clone)]
pub struct MemberRow {
    pub name: String,
    /// `None`: Pulp has no repository of that name (it refuses promotion).
    pub member: Option<Member>,
    /// Each environment of the path, in order; `Err`: its environments could not be read.
    pub environments: Result<Vec<EnvironmentState>, UpstreamError>,
    /// The newest version of the member (what the first environment would receive).
    pub newest: Option<VersionNumber>,
}

impl MemberRow {
    /// The version it serves in `environment` (`None` for nothing or not read).
    pub fn serving(&self, environment: &EnvironmentName) -> Option<VersionNumber> {
        let states = self.environments.as_ref().ok()?;
        states.iter().find(|e| e.name() == environment)?.serving()
    }
}

/// One environment of the release: the set it would receive, and its drift.
#[derive(Debug, Clone)]
pub struct EnvironmentColumn {
    pub name: EnvironmentName,
    /// Where the set comes from: the environment before it, or (first) the newest versions.
    pub source: Option<EnvironmentName>,
    pub proposed: ProposedSet,
    /// The last promotion of the release to it, if the audit has one.
    pub last: Option<ReleaseRecord>,
    pub drift: Vec<MemberDrift>,
}

/// The release page's facts.
#[derive(Debug, Clone)]
pub struct ReleaseView {
    pub release: Release,
    pub members: Vec<MemberRow>,
    pub environments: Vec<EnvironmentColumn>,
    /// The release's promotions, newest first; `Err` when the audit could not be read.
    pub promotions: Result<Vec<ReleaseRecord>, AuditReadError>,
}

impl ReleaseView {
    pub fn column(&self, environment: &EnvironmentName) -> Option<&EnvironmentColumn> {
        self.environments.iter().find(|c| &c.name == environment)
    }
}

/// The page of `release`: its members are read by name, then each member's environments,
/// all at once; the release's lines come from the audit meanwhile. Fails only when the
/// members themselves cannot be read.
pub async fn release_view(
    state: &AppState,
    release: &Release,
) -> Result<ReleaseView, UpstreamError> {
    let upstream = state.reads.as_ref();
    let rows = futures::future::try_join_all(
        release
            .members()
            .iter()
            .map(|name| member_row(state, upstream, name)),
    );
    let (rows, promotions) = futures::join!(
        rows,
        state.audit.recent_releases(&release.name, PROMOTIONS_SHOWN)
    );
    let rows = rows?;
    let environments = columns(
        state,
        release,
        &rows,
        promotions.as_deref().unwrap_or_default(),
    );
    Ok(ReleaseView {
        release: release.clone(),
        members: rows,
        environments,
        promotions,
    })
}

/// One member: the repository by name and the distributions its environments may be (by
/// the same name, for the patterns) at once, then what they serve.
async fn member_row(
    state: &AppState,
    upstream: &dyn RepositoryManager,
    name: &str,
) -> Result<MemberRow, UpstreamError> {
    let (repo, candidates) = futures::join!(
        upstream.repo_named(name),
        candidates(upstream, &state.environments, Some(name))
    );
    let Some(repo) = repo? else {
        return Ok(MemberRow {
            name: name.to_owned(),
            member: None,
            environments: Ok(Vec::new()),
            newest: None,
        });
    };
    let environments = environments_of(state, upstream, &repo, candidates).await;
    Ok(MemberRow {
        name: name.to_owned(),
        newest: repo.latest_version.as_ref().and_then(|v| v.number()),
        member: Some(Member {
            name: name.to_owned(),
            repo,
        }),
        environments,
    })
}

fn columns(
    state: &AppState,
    release: &Release,
    rows: &[MemberRow],
    promotions: &[ReleaseRecord],
) -> Vec<EnvironmentColumn> {
    let by_name: BTreeMap<&str, &MemberRow> = rows.iter().map(|r| (r.name.as_str(), r)).collect();
    state
        .environments
        .iter()
        .map(|environment| {
            let source = state
                .environments
                .previous(&environment.name)
                .map(|e| e.name.clone());
            let give = |member: &str| {
                let row = by_name.get(member)?;
                match &source {
                    Some(previous) => row.serving(previous),
                    None => row.newest,
                }
            };
            let serving = |member: &str| by_name.get(member)?.serving(&environment.name);
            let proposed = proposed_set(release.members(), give, serving);
            let last = promotions
                .iter()
                .find(|p| p.environment == environment.name)
                .cloned();
            // A member whose environments were not read is not known to differ.
            let read = |member: &str| by_name.get(member).is_some_and(|r| r.environments.is_ok());
            let mut drift = last
                .as_ref()
                .map(|last| release_drift(last, serving))
                .unwrap_or_default();
            drift.retain(|d| read(&d.repository));
            EnvironmentColumn {
                name: environment.name.clone(),
                source,
                proposed,
                last,
                drift,
            }
        })
        .collect()
}

/// Promotion `id` of `release`, among the newest the page lists (`None`: not among them).
pub async fn recorded_promotion(
    state: &AppState,
    release: &Release,
    id: &str,
) -> Result<Option<ReleaseRecord>, AuditReadError> {
    let records = state
        .audit
        .recent_releases(&release.name, PROMOTIONS_SHOWN)
        .await?;
    Ok(records.into_iter().find(|r| r.release.id.as_str() == id))
}
