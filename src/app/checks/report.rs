//! Use case: record a check's report, by an API token allowed `check:<environment>`, about a
//! version its environment serves or has served ([`super::served`]), then promote what it
//! completes ([`super::promote`]); and read the latest reports back.

use crate::domain::check::{CheckKey, CheckName, CheckReport, RunUrl};
use crate::domain::environment::{EnvironmentName, UnknownEnvironment};
use crate::domain::identity::{MissingScope, Operator, Scope};
use crate::domain::repository::{RepoId, Repository, VersionNumber};
use crate::ports::{CheckStoreError, UpstreamError};

use crate::app::checks::promote::{promote_after, Promotion};
use crate::app::checks::served::{has_served, ServedUnknown};
use crate::app::facts::{known_repo, ReadError as RepoReadError};
use crate::app::state::AppState;

/// A report as the API asks it, its fields not yet checked.
#[derive(Debug, Clone)]
pub struct CheckAsk {
    /// The repository's name or Pulp UUID.
    pub repository: String,
    pub environment: String,
    pub version: u64,
    pub name: String,
    pub passed: bool,
    pub url: Option<String>,
}

/// Why a report was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("Check not recorded: checks are reported by an API token with the scope check:<environment> ([[api.tokens]] scopes); {0} is not a token.")]
    NotAToken(String),
    #[error("Check not recorded: {0}.")]
    OutOfScope(MissingScope),
    #[error("Check not recorded: {0}.")]
    Invalid(String),
    #[error("Check not recorded: {0}.")]
    UnknownEnvironment(UnknownEnvironment),
    #[error("Check not recorded: Pulp has no RPM repository named or numbered '{0}'.")]
    UnknownRepository(String),
    #[error("Check not recorded: {repository} has no version {version} in Pulp.")]
    UnknownVersion { repository: String, version: u64 },
    #[error("Check not recorded: {environment} never served version {version} of {repository} (neither Pulp nor the audit log says it did). Report checks on the version the environment serves: deploy it there first.")]
    NotServed {
        repository: String,
        environment: EnvironmentName,
        version: u64,
    },
    #[error("Check not recorded: what {0} served could not be read (neither the audit log nor Pulp's record of its distribution); try again once they can be read.")]
    HistoryUnreadable(EnvironmentName),
    #[error("Check not recorded: the repository could not be read from Pulp: {0}")]
    Upstream(UpstreamError),
    #[error("Check not recorded: {0}. Fix the store beside the audit log, then report again.")]
    Store(CheckStoreError),
    #[error("Check not recorded: this console keeps no checks (no store is configured).")]
    NotKept,
}

/// Why checks could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Store(CheckStoreError),
    #[error("This console keeps no checks (no store is configured).")]
    NotKept,
}

/// A report recorded, and what it triggered.
#[derive(Debug)]
pub struct Reported {
    pub report: CheckReport,
    /// `None` when the report could trigger no promotion (it failed, or the environment after
    /// its own does not promote by itself).
    pub promotion: Option<Promotion>,
}

/// Records `ask` on behalf of `operator` (an API token holding `check:<environment>`), when
/// the environment serves or has served the version, stamped by the clock; then the promotion it completes, if any. A later report of the same
/// check replaces this one.
#[tracing::instrument(skip_all, fields(repository = %ask.repository, environment = %ask.environment, version = ask.version, check = %ask.name, passed = ask.passed, %operator))]
pub async fn report(
    state: &AppState,
    ask: CheckAsk,
    operator: &Operator,
) -> Result<Reported, ReportError> {
    let environment = state
        .environments
        .chosen(Some(&ask.environment))
        .map_err(ReportError::UnknownEnvironment)?
        .name
        .clone();
    if operator.token().is_none() {
        return Err(ReportError::NotAToken(operator.to_string()));
    }
    operator
        .holds(&Scope::check_in(&environment))
        .map_err(ReportError::OutOfScope)?;
    let name = CheckName::parse(&ask.name).map_err(|e| ReportError::Invalid(e.to_string()))?;
    let url = ask
        .url
        .as_deref()
        .filter(|u| !u.trim().is_empty())
        .map(RunUrl::parse)
        .transpose()
        .map_err(|e| ReportError::Invalid(e.to_string()))?;
    let store = state.checks.as_ref().ok_or(ReportError::NotKept)?;
    let repo = repository(state, &ask.repository, ask.version).await?;
    let served = has_served(state, &repo, &environment, VersionNumber::new(ask.version))
        .await
        .map_err(|unknown| match unknown {
            ServedUnknown::Upstream(error) => ReportError::Upstream(error),
            ServedUnknown::HistoryUnreadable => ReportError::HistoryUnreadable(environment.clone()),
        })?;
    if !served {
        return Err(ReportError::NotServed {
            repository: repo.display_name().to_owned(),
            environment,
            version: ask.version,
        });
    }
    let report = CheckReport {
        key: CheckKey {
            repository_uuid: repo.id.as_str().to_owned(),
            environment,
            version: ask.version,
            name,
        },
        repository_name: repo.display_name().to_owned(),
        passed: ask.passed,
        url,
        reporter: operator.as_str().to_owned(),
        at: state.clock.now().await,
    };
    store.record(&report).await.map_err(ReportError::Store)?;
    tracing::info!(repository = %report.repository_name, "check recorded");
    let promotion = promote_after(state, &repo.id, &report).await;
    Ok(Reported { report, promotion })
}

/// The repository named or numbered `named`, which must have version `version`.
async fn repository(
    state: &AppState,
    named: &str,
    version: u64,
) -> Result<Repository, ReportError> {
    let repo = find_repository(state, named).await?;
    let found = state
        .manager
        .versions_numbered(&repo.id, &[VersionNumber::new(version)])
        .await
        .map_err(ReportError::Upstream)?;
    if found.is_empty() {
        return Err(ReportError::UnknownVersion {
            repository: repo.display_name().to_owned(),
            version,
        });
    }
    Ok(repo)
}

/// The repository named (or numbered: its Pulp UUID) `named`.
pub async fn find_repository(state: &AppState, named: &str) -> Result<Repository, ReportError> {
    let unknown = || ReportError::UnknownRepository(named.chars().take(100).collect());
    let repo = match RepoId::parse(named.trim()) {
        Ok(id) => match known_repo(&id, state.manager.get_repo(&id).await) {
            Ok(repo) => repo,
            Err(RepoReadError::UnknownRepository(_)) => return Err(unknown()),
            Err(RepoReadError::Upstream(error)) => return Err(ReportError::Upstream(error)),
        },
        Err(_) => state
            .manager
            .repo_named(named.trim())
            .await
            .map_err(ReportError::Upstream)?
            .ok_or_else(unknown)?,
    };
    Ok(repo)
}

/// The latest report of each check of repository `id` (of `version` only, when given).
pub async fn latest(
    state: &AppState,
    id: &RepoId,
    version: Option<u64>,
) -> Result<Vec<CheckReport>, ReadError> {
    let store = state.checks.as_ref().ok_or(ReadError::NotKept)?;
    store.latest(id, version).await.map_err(ReadError::Store)
}
