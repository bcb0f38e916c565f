//! Use case: the versions page of one repository, one screen of versions at a time.

use serde::Serialize;

use std::collections::BTreeMap;

use futures::future::join_all;

use chrono::{DateTime, Utc};

use crate::domain::check::CheckReport;
use crate::domain::deploy::PreviousServing;
use crate::domain::environment::EnvironmentName;
use crate::domain::history::Drift;
use crate::domain::policy::{check_soak, served_since};
use crate::domain::repository::{
    build_version_views, Distribution, RepoId, RepoVerification, Screen, UnsignedMetadata,
    VersionHref, VersionNumber, VersionView,
};
use crate::domain::schedule::Schedule;
use crate::ports::{PageRequest, UpstreamError};

use crate::app::approvals::requests::{self, RequestView};
use crate::app::deploy::deploys_under_way;
use crate::app::diffs::ahead::newest_against_production;
use crate::app::edges::view::{lines, EdgeLine};
use crate::app::environments::lookup::has_no_distribution;
use crate::app::environments::{environments_of, ProductionRecord};
use crate::app::facts::{badge_policy, candidates_for, known_repo, ReadError, UnknownRepository};
use crate::app::promotion::policy_gate::{freeze_shown, Blocked};
use crate::app::schedules::list as schedules_list;
use crate::app::state::AppState;
use crate::domain::deploy::progress::UnderWay;

/// The newest closed deploy requests a versions page lists (every open one is listed).
const CLOSED_SHOWN: usize = 10;

/// One environment as the versions page shows it.
#[derive(Debug, Clone, Serialize)]
pub struct PageEnvironment {
    pub name: EnvironmentName,
    /// The version it serves; `None` when none (or unknown: see `unknown`).
    pub serving: Option<VersionNumber>,
    /// It has no distribution for this repository (none named, or the named one is missing).
    pub no_distribution: bool,
    /// Changed outside the console (see [`crate::domain::history::detect_drift`]).
    #[serde(skip)]
    pub drift: Option<Drift>,
    /// Frozen now by the policy: until when, and by which window.
    pub frozen: Option<String>,
    /// What the environment before serves has not soaked here yet: when it will have (RFC
    /// 3339), if that environment keeps serving it.
    pub soak_until: Option<String>,
    /// Why verification does not pass for a deploy here (each failing condition and its
    /// fix, under this environment's policy on unsigned metadata); `None` when it passes.
    pub not_verified: Option<String>,
    /// The policy on unsigned metadata here (`[verification.<environment>]`).
    pub unsigned_metadata: UnsignedMetadata,
}

/// Everything the versions page shows (the spec's page content), for one screen.
#[derive(Debug, Clone, Serialize)]
pub struct VersionsPage {
    pub repo_name: String,
    pub uuid: RepoId,
    /// The versions of this screen, newest first.
    pub versions: Vec<VersionView>,
    /// The screen shown.
    pub screen: Screen,
    /// The number of versions in all.
    pub total: u64,
    pub verification: Option<RepoVerification>,
    /// The policy on unsigned metadata the badge is computed under (the strictest of the
    /// path: see [`crate::app::facts::badge_policy`]).
    pub unsigned_metadata: UnsignedMetadata,
    /// The version production serves; `None` when none or unknown.
    pub deployed: Option<VersionNumber>,
    /// Set when the deployed version could not be determined (distributions not listed).
    #[serde(skip)]
    pub deployed_unknown: Option<UpstreamError>,
    /// Set when the repository or its versions could not be read (the page's main read): the
    /// page then lists no version, and answers the status of this failure.
    #[serde(skip)]
    pub error: Option<UpstreamError>,
    /// Production was changed outside the console (see [`crate::domain::history::detect_drift`]).
    #[serde(skip)]
    pub drift: Option<Drift>,
    /// Every environment, in path order (production, the last, is also `deployed`).
    pub environments: Vec<PageEnvironment>,
    /// The environments the viewer cannot deploy to now, with why (set for the viewer by
    /// [`crate::app::promotion::policy_gate::blocked_everywhere`]).
    #[serde(skip)]
    pub blocked: BTreeMap<EnvironmentName, Blocked>,
    /// The repository's newest approval requests, newest first (see [`crate::app::approvals::requests`]).
    #[serde(skip)]
    pub requests: Vec<RequestView>,
    /// The repository's schedules still waiting or running, soonest first.
    #[serde(skip)]
    pub schedules: Vec<Schedule>,
    /// The latest report of each check of this repository (every version and environment).
    #[serde(skip)]
    pub checks: Vec<CheckReport>,
    /// The deploys of this repository running now in this console, or ended within the
    /// last minute (see [`crate::app::promotion::under_way`]).
    #[serde(skip)]
    pub under_way: Vec<UnderWay>,
    /// The pins rollbacks set on this repository's environments, with their history.
    #[serde(skip)]
    pub pins: crate::app::pins::RepositoryPins,
    /// Why the pins could not be read, when they could not (an unreadable pin holds its
    /// environment: automation and schedules do not move it).
    #[serde(skip)]
    pub pins_unreadable: Option<String>,
    /// For each environment the edge Pulps copy: "production: moved; edges: 1 of 2 serve
    /// it" (see [`crate::app::edges::view::lines`]).
    #[serde(skip)]
    pub edges: Vec<EdgeLine>,
}

impl VersionsPage {
    /// Why this viewer cannot deploy to `environment` now (see [`crate::app::promotion::policy_gate::blocked`]).
    pub fn blocked(&self, environment: &EnvironmentName) -> Option<Blocked> {
        self.blocked.get(environment).cloned()
    }
}

impl VersionsPage {
    /// The page when the repository or its versions could not be read: no version listed.
    fn unreadable(id: &RepoId, screen: Screen, error: &UpstreamError) -> Self {
        Self {
            repo_name: id.to_string(),
            uuid: id.clone(),
            versions: Vec::new(),
            screen,
            total: 0,
            verification: None,
            unsigned_metadata: UnsignedMetadata::default(),
            deployed: None,
            deployed_unknown: None,
            error: Some(error.clone()),
            drift: None,
            environments: Vec::new(),
            blocked: BTreeMap::new(),
            requests: Vec::new(),
            schedules: Vec::new(),
            checks: Vec::new(),
            under_way: Vec::new(),
            pins: Default::default(),
            pins_unreadable: None,
            edges: Vec::new(),
        }
    }
}

/// One screen of the versions page. Everything is read in one round of concurrent calls:
/// the repository, the screen's versions (one more than shown, to name the version before
/// the last row), production's candidates, and production's record (the audit lines, then
/// upstream's record of the distribution production was last seen to be, when the console
/// ever changed production: drift is judged from that); then the publication production
/// serves, which is usually known already. The cost does not depend on the number of versions or of
/// distributions with a configured production. An upstream failure never fails the page:
/// it is rendered with the error text. Only a repository Pulp does not have is an error.
#[tracing::instrument(skip_all, fields(repo = %id, screen = screen.index()))]
pub async fn versions_page(
    state: &AppState,
    id: &RepoId,
    screen: Screen,
) -> Result<VersionsPage, UnknownRepository> {
    let reads = state.reads.as_ref();
    let slice = PageRequest {
        offset: screen.offset(),
        limit: screen.size().saturating_add(1),
    };
    let early = join_all(
        state
            .environments
            .iter()
            .map(|e| ProductionRecord::read_early(state, id, &e.name)),
    );
    let (repo, versions, candidates, early, asked, scheduled, checks, pins) = futures::join!(
        reads.get_repo(id),
        reads.version_page(id, slice),
        candidates_for(state, reads, id),
        early,
        requests::list(state, Some(id), usize::MAX),
        schedules_list::open_of(state, id),
        crate::app::checks::latest(state, id, None),
        crate::app::pins::of_repository(state, id),
    );
    let (pins, pins_unreadable) = match pins {
        Ok(pins) => (pins, None),
        Err(error) => {
            tracing::warn!(%error, "versions page rendered without its pins");
            (Default::default(), Some(error.to_string()))
        }
    };
    let scheduled = scheduled.unwrap_or_else(|error| {
        if state.schedules.is_some() {
            tracing::warn!(%error, "versions page rendered without its schedules");
        }
        Vec::new()
    });
    let checks = checks.unwrap_or_else(|error| {
        tracing::warn!(%error, "versions page rendered without its checks");
        Vec::new()
    });
    let asked = asked
        .map(every_open_and_the_newest_closed)
        .unwrap_or_else(|error| {
            tracing::warn!(%error, "versions page rendered without its deploy requests");
            Vec::new()
        });
    let read = known_repo(id, repo).and_then(|repo| match versions {
        Ok(versions) => Ok((repo, versions)),
        Err(error) => Err(ReadError::Upstream(error)),
    });
    let (repo, versions) = match read {
        Ok(found) => found,
        Err(ReadError::UnknownRepository(unknown)) => return Err(unknown),
        Err(error) => {
            let error = match error {
                ReadError::Upstream(error) => error,
                other => UpstreamError::BadResponse(other.to_string()),
            };
            tracing::warn!(%error, "versions page rendered without versions");
            return Ok(VersionsPage::unreadable(id, screen, &error));
        }
    };
    let read = environments_of(state, reads, &repo, candidates).await;
    let mut environments: Vec<PageEnvironment> = Vec::new();
    let now = state.clock.now().await;
    let mut previous: Option<PreviousServing> = None;
    let mut copied: Vec<(EnvironmentName, String)> = Vec::new();
    for (i, (environment, record)) in state.environments.iter().zip(early).enumerate() {
        let env = read.as_ref().ok().and_then(|all| all.get(i));
        let serving = env.and_then(|e| e.serving());
        let distribution = env.and_then(|e| e.distribution());
        let record = record.settle(state, id, distribution, serving).await;
        let name = environment.name.clone();
        // An environment serving nothing gives the edges nothing to copy: no edge line.
        if let (Some(distribution), Some(_)) = (distribution, serving) {
            copied.push((name.clone(), distribution.name.clone()));
        }
        let soak_until = previous
            .as_ref()
            .and_then(|before| soak_pending(state, &name, before, serving, now));
        previous = Some(PreviousServing {
            environment: name.clone(),
            serving,
            since: served_since(
                record.audit.as_deref().unwrap_or_default(),
                &name,
                serving,
                last_updated(distribution),
            ),
        });
        let unsigned_metadata = state.policy.metadata().at(&name);
        let not_verified = repo.verification.gate_failure(unsigned_metadata);
        environments.push(PageEnvironment {
            frozen: freeze_shown(state, &name, now),
            name,
            serving,
            no_distribution: env.is_some_and(|e| has_no_distribution(&e.state)),
            drift: distribution.and_then(|d| record.drift(d)),
            soak_until,
            not_verified,
            unsigned_metadata,
        });
    }
    let production = environments.last();
    let deployed = production.and_then(|p| p.serving);
    let packages = |n: VersionNumber| {
        versions
            .items
            .iter()
            .find(|v| v.number() == Some(n))
            .map(|v| v.package_count)
    };
    // What each environment would be shown next: the newest version against what it
    // serves, and the promotion of what the environment before it serves.
    let newest = repo.latest_version.as_ref().and_then(VersionHref::number);
    for (i, env) in environments.iter().enumerate().rev() {
        newest_against_production(state, &repo, newest, env.serving, packages);
        if let Some(before) = i.checked_sub(1).and_then(|b| environments.get(b)) {
            newest_against_production(state, &repo, before.serving, env.serving, packages);
        }
    }
    let rows = usize::try_from(screen.size()).unwrap_or(usize::MAX);
    let unsigned_metadata = badge_policy(state);
    let badge = repo.verification.badge(unsigned_metadata);
    Ok(VersionsPage {
        repo_name: repo.display_name().to_owned(),
        uuid: id.clone(),
        versions: build_version_views(&versions.items, badge, deployed, rows),
        screen,
        total: versions.total,
        verification: Some(repo.verification.clone()),
        unsigned_metadata,
        deployed,
        deployed_unknown: read.as_ref().err().cloned(),
        error: None,
        drift: environments.last().and_then(|p| p.drift.clone()),
        environments,
        blocked: BTreeMap::new(),
        requests: asked,
        schedules: scheduled,
        checks,
        under_way: deploys_under_way(state, id, None).await,
        pins,
        pins_unreadable,
        edges: lines(&state.edge_world(), &copied).await,
    })
}

/// When what `before` serves will have soaked in `environment` (which serves `serving`), if
/// it has not yet and would go there next.
fn soak_pending(
    state: &AppState,
    environment: &EnvironmentName,
    before: &PreviousServing,
    serving: Option<VersionNumber>,
    now: DateTime<Utc>,
) -> Option<String> {
    let soak = state.policy.soak_of(environment)?;
    let candidate = before.serving.filter(|n| serving != Some(*n))?;
    check_soak(soak, before, candidate, now)
        .err()
        .and_then(|soaking| soaking.until_text())
}

/// Upstream's time of the distribution's last write.
fn last_updated(distribution: Option<&Distribution>) -> Option<DateTime<Utc>> {
    let revision = distribution?.revision.as_ref()?;
    DateTime::parse_from_rfc3339(revision.as_str())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// The screen (of `size` versions) on which version `number` is, newest first: one upstream
/// call (how many versions are newer).
pub async fn screen_of(
    state: &AppState,
    id: &RepoId,
    number: VersionNumber,
    size: u64,
) -> Result<Screen, UpstreamError> {
    let newer = state.reads.versions_newer_than(id, number).await?;
    Ok(Screen::containing(newer, size))
}

/// Every open request (however old: one waiting for approvals never drops out of view), and
/// the newest [`CLOSED_SHOWN`] closed ones; newest first.
fn every_open_and_the_newest_closed(
    newest_first: Vec<requests::RequestView>,
) -> Vec<requests::RequestView> {
    let mut closed = 0;
    newest_first
        .into_iter()
        .filter(|view| {
            view.state.is_open() || {
                closed += 1;
                closed <= CLOSED_SHOWN
            }
        })
        .collect()
}
