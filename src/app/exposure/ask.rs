//! Use case: one exposure question answered across every repository and environment. Reads:
//! every repository (1,000 a request), what each environment serves (as the
//! dashboard reads it: distributions and publications, a bounded number of calls; the
//! distributions the last question needed are read while the repositories are listed), the
//! question's advisories (by id; a CVE's from the index; read while the repositories are
//! listed too), then one filtered read per served
//! version (and per latest version of a repository with an affected cell, for "fixed in"),
//! [`READS_IN_FLIGHT`] at a time, each kept for the next question.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use futures::stream::{self, StreamExt};

use crate::domain::diff::Package;
use crate::domain::exposure::{
    judge_advisories, judge_package, AdvisoryFix, ExposureQuery, ExposureState, Judgement,
};
use crate::domain::repository::{Repository, VersionHref, VersionNumber};
use crate::ports::{PageRequest, UpstreamError};

use super::answer::{ExposureAnswer, ExposureRow, IndexFacts};
use super::index::advisories_naming;
use super::reads::Needed;
use crate::app::environments::rows::{
    environments_given, needed_distributions, read_needed, NeededDistributions,
};
use crate::app::state::AppState;

/// Version reads in flight at once.
pub const READS_IN_FLIGHT: usize = 8;
/// Repositories per request when listing them all.
const REPOSITORIES_PER_PAGE: u64 = 1000;

/// Why a question could not be answered at all (a cell that could not be read is `unknown`
/// instead).
#[derive(Debug, Clone, thiserror::Error)]
pub enum ExposureError {
    #[error("Pulp holds no advisory '{0}'. Check its id (as in the advisory's updateinfo, e.g. RHSA-2026:1234).")]
    UnknownAdvisory(String),
    #[error("Could not read {what} from Pulp: {error}")]
    Upstream {
        what: &'static str,
        error: UpstreamError,
    },
}

impl ExposureError {
    fn reading(what: &'static str) -> impl FnOnce(UpstreamError) -> Self {
        move |error| Self::Upstream { what, error }
    }
}

/// What the question judges versions against.
enum Subject {
    Package {
        name: String,
        arch: Option<String>,
        below: Option<crate::domain::exposure::EvrBound>,
    },
    Advisories(Vec<AdvisoryFix>),
}

impl Subject {
    /// The package names each version is read for, sorted, each once.
    fn names(&self) -> Vec<String> {
        match self {
            Self::Package { name, .. } => vec![name.clone()],
            Self::Advisories(fixes) => {
                let names: BTreeSet<&str> = fixes.iter().flat_map(AdvisoryFix::names).collect();
                names.into_iter().map(str::to_owned).collect()
            }
        }
    }

    /// The advisory ids each version is asked whether it holds, sorted, each once.
    fn ids(&self) -> Vec<String> {
        match self {
            Self::Package { .. } => Vec::new(),
            Self::Advisories(fixes) => {
                let ids: BTreeSet<&str> = fixes.iter().map(|f| f.id.as_str()).collect();
                ids.into_iter().map(str::to_owned).collect()
            }
        }
    }

    /// Whether the question applies to `repo`'s type: an advisory question only where the type
    /// carries advisories (not Debian's).
    fn applies_to(&self, repo: &Repository) -> bool {
        match self {
            Self::Package { .. } => true,
            Self::Advisories(_) => repo.content_type().has_advisories(),
        }
    }

    fn judge(&self, read: &VersionRead) -> Judgement {
        match self {
            Self::Package { name, arch, below } => {
                judge_package(&read.builds, name, arch.as_deref(), below.as_ref())
            }
            Self::Advisories(fixes) => {
                let held: BTreeSet<String> = read.held.iter().cloned().collect();
                judge_advisories(&read.builds, fixes, &held)
            }
        }
    }
}

/// One environment of one repository, and what it serves (`Err`: why it is not known).
struct Cell<'r> {
    repo: &'r Repository,
    environment: crate::domain::environment::EnvironmentName,
    serving: Result<Option<VersionNumber>, String>,
}

/// One version as read for the question.
struct VersionRead {
    builds: Arc<Vec<Package>>,
    held: Arc<Vec<String>>,
}

/// Answers `query` (see the module's doc for the reads).
#[tracing::instrument(skip_all, fields(query = ?query))]
pub async fn exposure(
    state: &AppState,
    query: &ExposureQuery,
) -> Result<ExposureAnswer, ExposureError> {
    // The question's advisories, the repositories and the distributions read last time, at once.
    let served_now = served_environments(state);
    let (subject, repos, early) = futures::join!(
        subject_of(state, query),
        all_repositories(state),
        served_now.early()
    );
    let (subject, index) = subject?;
    let advisories = subject.ids();
    let repos = repos?;
    let served = served_now.rows(&repos, early).await;
    let (names, ids) = (subject.names(), subject.ids());
    let mut wanted: BTreeSet<VersionHref> = BTreeSet::new();
    let mut cells = Vec::new();
    for repo in &repos {
        for (i, environment) in state.environments.iter().enumerate() {
            let serving = match &served {
                Ok(rows) => rows
                    .get(&repo.id)
                    .and_then(|envs| envs.get(i))
                    .map_or_else(|| Err("not read".to_owned()), |e| e.serving.clone()),
                Err(error) => Err(error.to_string()),
            };
            if let Ok(Some(n)) = &serving {
                if subject.applies_to(repo) {
                    wanted.insert(repo.version_href(*n));
                }
            }
            cells.push(Cell {
                repo,
                environment: environment.name.clone(),
                serving,
            });
        }
    }
    let mut reads = read_versions(state, wanted, &names, &ids).await;
    let judged: Vec<(usize, Result<Judgement, String>)> = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| (i, judge_cell(&subject, cell.repo, &cell.serving, &reads)))
        .collect();
    // "fixed in": the latest versions of repositories with an affected cell, read too.
    let latest: BTreeSet<VersionHref> = judged
        .iter()
        .filter(|(_, j)| matches!(j, Ok(j) if j.state == ExposureState::Affected))
        .filter_map(|(i, _)| cells[*i].repo.latest_version.clone())
        .filter(|href| !reads.contains_key(href))
        .collect();
    reads.extend(read_versions(state, latest, &names, &ids).await);
    let rows = cells
        .iter()
        .zip(judged)
        .map(|(cell, (_, judgement))| {
            let (repo, environment) = (cell.repo, &cell.environment);
            let version = cell.serving.as_ref().ok().copied().flatten();
            let (judgement, reason) = match judgement {
                Ok(judgement) => (judgement, None),
                Err(reason) => (
                    Judgement {
                        state: ExposureState::Unknown,
                        packages: Vec::new(),
                        older_builds_served: Vec::new(),
                    },
                    Some(reason),
                ),
            };
            let fixed_in = (judgement.state == ExposureState::Affected)
                .then(|| {
                    fixed_in(
                        &subject,
                        repo,
                        version,
                        &served_versions(&cells, repo),
                        &reads,
                    )
                })
                .flatten();
            ExposureRow {
                repository: repo.display_name().to_owned(),
                repository_uuid: repo.id.clone(),
                environment: environment.clone(),
                version,
                state: judgement.state,
                packages: judgement.packages,
                older_builds_served: judgement.older_builds_served,
                reason,
                fixed_in,
            }
        })
        .collect();
    Ok(ExposureAnswer {
        query: query.clone(),
        advisories,
        environments: state.environments.iter().map(|e| e.name.clone()).collect(),
        rows,
        index,
    })
}

/// What the question judges against: the package, or the advisories read by id (a CVE's
/// found in the index first).
async fn subject_of(
    state: &AppState,
    query: &ExposureQuery,
) -> Result<(Subject, Option<IndexFacts>), ExposureError> {
    let ids = match query {
        ExposureQuery::Package { name, arch, below } => {
            let subject = Subject::Package {
                name: name.clone(),
                arch: arch.clone(),
                below: below.clone(),
            };
            return Ok((subject, None));
        }
        ExposureQuery::Advisory(id) => (vec![id.clone()], None),
        ExposureQuery::Cve(cve) => {
            let (ids, facts) = advisories_naming(state, cve)
                .await
                .map_err(ExposureError::reading("the advisories (for the CVE index)"))?;
            (ids, Some(facts))
        }
    };
    let (ids, facts) = ids;
    let fixes = if ids.is_empty() {
        Vec::new()
    } else {
        state
            .content
            .advisory_fixes(&ids)
            .await
            .map_err(ExposureError::reading("the advisories"))?
    };
    if let ExposureQuery::Advisory(id) = query {
        if fixes.is_empty() {
            return Err(ExposureError::UnknownAdvisory(id.clone()));
        }
    }
    Ok((Subject::Advisories(fixes), facts))
}

/// What each environment serves, read in two steps: the distributions the last question
/// needed, while the repositories are listed; then, once they are known, what they need and
/// was not read (nothing, unless a repository or a name is new), and the publications.
struct ServedEnvironments<'s> {
    state: &'s AppState,
    hint: Option<NeededDistributions>,
}

fn served_environments(state: &AppState) -> ServedEnvironments<'_> {
    let hint = state
        .exposure_reads()
        .last_needed()
        .map(|needed| match needed {
            Needed::Every => NeededDistributions::Every,
            Needed::Named(names) => NeededDistributions::Named(names),
        });
    ServedEnvironments { state, hint }
}

impl ServedEnvironments<'_> {
    /// The distributions the last question needed (none before the first).
    async fn early(
        &self,
    ) -> Option<Result<Vec<crate::domain::repository::Distribution>, UpstreamError>> {
        let hint = self.hint.as_ref()?;
        Some(read_needed(self.state, hint).await)
    }

    async fn rows(
        &self,
        repos: &[Repository],
        early: Option<Result<Vec<crate::domain::repository::Distribution>, UpstreamError>>,
    ) -> Result<
        HashMap<
            crate::domain::repository::RepoId,
            Vec<crate::app::environments::rows::RowProduction>,
        >,
        UpstreamError,
    > {
        let needed = needed_distributions(self.state, repos);
        let distributions = match (early, &self.hint) {
            (Some(Ok(read)), Some(hint)) if hint.covers(&needed) => read,
            _ => read_needed(self.state, &needed).await?,
        };
        self.state.exposure_reads().needed(match &needed {
            NeededDistributions::Every => Needed::Every,
            NeededDistributions::Named(names) => Needed::Named(names.clone()),
        });
        Ok(environments_given(self.state, repos, &distributions).await)
    }
}

/// Every repository, by name.
async fn all_repositories(state: &AppState) -> Result<Vec<Repository>, ExposureError> {
    let mut repos = Vec::new();
    loop {
        let page = state
            .reads
            .list_repos(PageRequest {
                offset: repos.len() as u64,
                limit: REPOSITORIES_PER_PAGE,
            })
            .await
            .map_err(ExposureError::reading("the repositories"))?;
        let done =
            page.items.is_empty() || repos.len() as u64 + page.items.len() as u64 >= page.total;
        repos.extend(page.items);
        if done {
            return Ok(repos);
        }
    }
}

/// Reads `versions` for the question, [`READS_IN_FLIGHT`] at a time; a failed read is kept
/// as its reason.
async fn read_versions(
    state: &AppState,
    versions: BTreeSet<VersionHref>,
    names: &[String],
    ids: &[String],
) -> HashMap<VersionHref, Result<VersionRead, String>> {
    let content = state.content.as_ref();
    let reads = state.exposure_reads();
    let kept = reads.as_ref();
    stream::iter(versions)
        .map(|href| async move {
            let (builds, held) = futures::join!(
                kept.builds(content, &href, names),
                kept.held(content, &href, ids)
            );
            let read = match (builds, held) {
                (Ok(builds), Ok(held)) => Ok(VersionRead { builds, held }),
                (Err(error), _) | (_, Err(error)) => Err(format!(
                    "version {} could not be read from Pulp: {error} (open the repository's \
                     versions page, or ask again)",
                    href.number().map_or(0, VersionNumber::get)
                )),
            };
            (href, read)
        })
        .buffer_unordered(READS_IN_FLIGHT)
        .collect()
        .await
}

fn judge_cell(
    subject: &Subject,
    repo: &Repository,
    serving: &Result<Option<VersionNumber>, String>,
    reads: &HashMap<VersionHref, Result<VersionRead, String>>,
) -> Result<Judgement, String> {
    if !subject.applies_to(repo) {
        return Ok(Judgement::not_applicable());
    }
    let number = match serving {
        Err(reason) => {
            return Err(format!(
                "what this environment serves could not be read from Pulp: {reason}"
            ))
        }
        Ok(None) => return Ok(Judgement::absent()),
        Ok(Some(number)) => *number,
    };
    match reads.get(&repo.version_href(number)) {
        Some(Ok(read)) => Ok(subject.judge(read)),
        Some(Err(reason)) => Err(reason.clone()),
        None => Err("the version was not read".to_owned()),
    }
}

/// The versions of `repo` its environments serve.
fn served_versions(cells: &[Cell<'_>], repo: &Repository) -> Vec<VersionNumber> {
    cells
        .iter()
        .filter(|c| c.repo.id == repo.id)
        .filter_map(|c| c.serving.as_ref().ok().copied().flatten())
        .collect()
}

/// The oldest version newer than `version`, among those served and the latest, that is fixed.
fn fixed_in(
    subject: &Subject,
    repo: &Repository,
    version: Option<VersionNumber>,
    served: &[VersionNumber],
    reads: &HashMap<VersionHref, Result<VersionRead, String>>,
) -> Option<VersionNumber> {
    let version = version?;
    let latest = repo.latest_version.as_ref().and_then(VersionHref::number);
    let candidates: BTreeMap<VersionNumber, VersionHref> = served
        .iter()
        .copied()
        .chain(latest)
        .filter(|n| *n > version)
        .map(|n| (n, repo.version_href(n)))
        .collect();
    candidates
        .into_iter()
        .find_map(|(n, href)| match reads.get(&href) {
            Some(Ok(read)) if subject.judge(read).state == ExposureState::Fixed => Some(n),
            _ => None,
        })
}
