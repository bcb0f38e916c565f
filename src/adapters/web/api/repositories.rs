//! `GET /api/v1/repositories`, `/repositories/{uuid}`, `/repositories/{uuid}/versions` and
//! `/repositories/{uuid}/changes`: what the dashboard, the versions page and the compare
//! page show, from the same use cases, as JSON.

use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::diffs::compare::compare;
use crate::app::pages::dashboard::{dashboard, DashboardRow};
use crate::app::pages::versions::{versions_page, PageEnvironment, VersionsPage};
use crate::app::AppState;
use crate::domain::diff::PackageFilter;
use crate::domain::repository::{RepoId, Screen, VersionNumber, VERSIONS_PER_SCREEN};
use crate::domain::sync::SyncState;

use super::super::download::json_body;
use super::super::errors::WebError;
use super::error::{ApiError, ErrorBody};

/// A page number, from 0.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// The page, from 0.
    pub page: Option<u64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RepositoryList {
    pub items: Vec<RepositorySummary>,
    pub page: u64,
    pub page_size: u64,
    /// Repositories in all.
    pub total: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RepositorySummary {
    pub uuid: String,
    pub name: String,
    /// `rpm` or `deb`: the kind of packages it holds, as Pulp says.
    pub content_type: String,
    /// `verified`, `partial` or `unverified`.
    pub verification: String,
    pub latest_version: Option<u64>,
    pub environments: Vec<EnvironmentState>,
    pub sync: SyncSummary,
}

/// What one environment serves of a repository.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvironmentState {
    pub name: String,
    /// The version it serves; null when none.
    pub serving: Option<u64>,
    /// Changed outside the console since its last change.
    pub drift: bool,
    /// It has no distribution for this repository.
    pub no_distribution: bool,
    /// Until when it is frozen (and by which window), when it is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frozen: Option<String>,
    /// Why what it serves could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The pin a rollback set on it, when one holds: automatic promotions and schedules do
    /// not move it. Told in one repository's answer (absent there: not pinned); the list
    /// leaves it out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pin: Option<PinState>,
}

/// A rollback's pin on an environment.
#[derive(Debug, Serialize, ToSchema)]
pub struct PinState {
    /// The version it holds (the rollback's target).
    pub version: u64,
    /// Who rolled back.
    pub set_by: String,
    /// The rollback's reason.
    pub reason: String,
    /// When (RFC 3339, UTC).
    pub since: String,
    /// The rollback's deploy id.
    pub deploy_id: String,
}

impl From<&crate::domain::pin::Pin> for PinState {
    fn from(pin: &crate::domain::pin::Pin) -> Self {
        Self {
            version: pin.version.get(),
            set_by: pin.set_by.clone(),
            reason: pin.reason.clone(),
            since: pin.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            deploy_id: pin.deploy_id.as_str().to_owned(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SyncSummary {
    /// `idle`, `running`, `done` or `failed`.
    pub state: String,
    /// Running: units done so far, and the total when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Done: the version it made (null: nothing changed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub made: Option<u64>,
    /// Failed: why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl From<&SyncState> for SyncSummary {
    fn from(state: &SyncState) -> Self {
        let empty = |word: &str| Self {
            state: word.to_owned(),
            done: None,
            total: None,
            made: None,
            reason: None,
        };
        match state {
            SyncState::Idle => empty("idle"),
            SyncState::Running(progress) => Self {
                done: Some(progress.done),
                total: progress.total,
                ..empty("running")
            },
            SyncState::Done(made) => Self {
                made: made.map(VersionNumber::get),
                ..empty("done")
            },
            SyncState::Failed(failure) => Self {
                reason: Some(failure.told()),
                ..empty("failed")
            },
        }
    }
}

fn summary(row: &DashboardRow) -> RepositorySummary {
    RepositorySummary {
        uuid: row.id.to_string(),
        name: row.name.clone(),
        content_type: row.content_type.as_str().to_owned(),
        verification: row.badge.as_str().to_owned(),
        latest_version: row.sync.latest.map(VersionNumber::get),
        environments: row
            .environments
            .iter()
            .map(|e| EnvironmentState {
                name: e.environment.to_string(),
                serving: e.serving.clone().ok().flatten().map(VersionNumber::get),
                drift: e.drift,
                no_distribution: e.no_distribution,
                frozen: None,
                error: e.serving.clone().err(),
                pin: None,
            })
            .collect(),
        sync: SyncSummary::from(&row.sync.state),
    }
}

/// Every repository, a page at a time (the dashboard's page size).
#[utoipa::path(get, path = "/api/v1/repositories", operation_id = "listRepositories", params(PageQuery), tag = "repositories",
    responses((status = 200, body = RepositoryList), (status = 502, body = ErrorBody), (status = 503, body = ErrorBody), (status = 504, body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    query: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<RepositoryList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let page = dashboard(&state, query.page.unwrap_or(0)).await;
    if let Some(error) = &page.error {
        return Err(ApiError::of(error));
    }
    Ok(Json(RepositoryList {
        items: page.rows.iter().map(summary).collect(),
        page: page.page,
        page_size: page.limit,
        total: page.total,
    }))
}

/// The `{uuid}` segment: anything but a UUID is a 404.
pub fn repo_id(raw: &str) -> Result<RepoId, ApiError> {
    RepoId::parse(raw).map_err(|_| {
        ApiError::not_found("No repository has this identifier: repository identifiers are UUIDs.")
    })
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RepositoryDetail {
    pub uuid: String,
    pub name: String,
    /// `rpm` or `deb`: the kind of packages it holds, as Pulp says, and so which client's
    /// rules its verification follows (dnf's three settings, or apt's signed `Release`).
    pub content_type: String,
    pub verification: Verification,
    /// Versions in all.
    pub versions: u64,
    /// Every environment, first to last (production).
    pub environments: Vec<EnvironmentState>,
    /// Why the pins could not be read, when they could not: then no environment's `pin` can
    /// be told, and an unreadable pin holds automation and schedules back (absent: read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pins_unreadable: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Verification {
    /// `verified`, `partial` or `unverified`.
    pub badge: String,
    pub gpgcheck: Option<bool>,
    pub repo_gpgcheck: Option<bool>,
    pub checksum: Option<String>,
    /// A metadata signing service is set (`null`: upstream did not say).
    pub metadata_signed: Option<bool>,
    /// What clients do with the metadata under the policy the badge is computed under:
    /// `checked`, `refused-by-clients` (repo_gpgcheck on without a signing service),
    /// `unchecked-allowed` or `unchecked-refused` (repo_gpgcheck off, and the policy on
    /// unsigned metadata).
    pub metadata: String,
}

fn environments(page: &VersionsPage) -> Vec<EnvironmentState> {
    let unknown = page.deployed_unknown.as_ref().map(ToString::to_string);
    page.environments
        .iter()
        .map(|e: &PageEnvironment| EnvironmentState {
            name: e.name.to_string(),
            serving: e.serving.map(VersionNumber::get),
            drift: e.drift.is_some(),
            no_distribution: e.no_distribution,
            frozen: e.frozen.clone(),
            error: unknown.clone(),
            pin: page.pins.of(&e.name).map(PinState::from),
        })
        .collect()
}

/// Reads one screen of the versions page, or the error that page would answer.
async fn read_page(
    state: &AppState,
    id: &RepoId,
    screen: Screen,
) -> Result<VersionsPage, ApiError> {
    let page = versions_page(state, id, screen)
        .await
        .map_err(|unknown| ApiError::from(WebError::from(unknown)))?;
    match &page.error {
        Some(error) => Err(ApiError::of(error)),
        None => Ok(page),
    }
}

/// One repository: its verification and what each environment serves, with drift.
#[utoipa::path(get, path = "/api/v1/repositories/{uuid}", operation_id = "getRepository", tag = "repositories",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID")),
    responses((status = 200, body = RepositoryDetail), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    Path(uuid): Path<String>,
) -> Result<Json<RepositoryDetail>, ApiError> {
    let id = repo_id(&uuid)?;
    let page = read_page(&state, &id, Screen::new(0, 1)).await?;
    let verification = page.verification.clone().unwrap_or_default();
    Ok(Json(RepositoryDetail {
        uuid: id.to_string(),
        name: page.repo_name.clone(),
        content_type: verification.content_type.as_str().to_owned(),
        verification: Verification {
            badge: verification
                .badge(page.unsigned_metadata)
                .as_str()
                .to_owned(),
            metadata: verification
                .metadata(page.unsigned_metadata)
                .as_str()
                .to_owned(),
            gpgcheck: verification.gpgcheck,
            repo_gpgcheck: verification.repo_gpgcheck,
            metadata_signed: verification.metadata_signed,
            checksum: verification.checksum.map(|c| c.as_str().to_owned()),
        },
        versions: page.total,
        environments: environments(&page),
        pins_unreadable: page.pins_unreadable.clone(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VersionList {
    /// Newest first.
    pub items: Vec<VersionItem>,
    pub page: u64,
    pub page_size: u64,
    pub total: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VersionItem {
    pub number: Option<u64>,
    /// RFC 3339.
    pub created: String,
    pub packages: u64,
    /// Packages added minus removed against the previous version.
    pub change: i64,
    pub added: u64,
    pub removed: u64,
    /// `verified`, `partial` or `unverified`.
    pub verification: String,
    /// The environments serving this version.
    pub environments: Vec<String>,
}

/// One page of versions, newest first (50 a page).
#[utoipa::path(get, path = "/api/v1/repositories/{uuid}/versions", operation_id = "listVersions", tag = "repositories",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID"), PageQuery),
    responses((status = 200, body = VersionList), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn versions(
    State(state): State<AppState>,
    Path(uuid): Path<String>,
    query: Result<Query<PageQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<VersionList>, ApiError> {
    let id = repo_id(&uuid)?;
    let Query(query) = query.map_err(|e| {
        ApiError::bad_request(format!(
            "'page' must be a page number (0, 1, 2…): {}",
            e.body_text()
        ))
    })?;
    let screen = Screen::new(query.page.unwrap_or(0), VERSIONS_PER_SCREEN);
    let page = read_page(&state, &id, screen).await?;
    let serving = |n: Option<VersionNumber>| -> Vec<String> {
        page.environments
            .iter()
            .filter(|e| n.is_some() && e.serving == n)
            .map(|e| e.name.to_string())
            .collect()
    };
    Ok(Json(VersionList {
        items: page
            .versions
            .iter()
            .map(|v| VersionItem {
                number: v.number.map(VersionNumber::get),
                created: v
                    .created
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
                packages: v.package_count,
                change: v.change,
                added: v.added,
                removed: v.removed,
                verification: v.badge.as_str().to_owned(),
                environments: serving(v.number),
            })
            .collect(),
        page: screen.index(),
        page_size: screen.size(),
        total: page.total,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ChangesQuery {
    /// The version compared against.
    pub from: Option<String>,
    /// The version whose changes are listed.
    pub to: Option<String>,
}

/// The changes between two versions, as the compare page's JSON download:
/// `{"repository", "from", "to", "packages": [{"name", "arch", "kind", "old", "new", "security"}…],
/// "advisories": {"added", "dropped", "updated"}}`.
#[utoipa::path(get, path = "/api/v1/repositories/{uuid}/changes", operation_id = "getChanges", tag = "repositories",
    params(("uuid" = String, Path, description = "The repository's Pulp UUID"), ChangesQuery),
    responses((status = 200, description = "The comparison", content_type = "application/json", body = Object), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn changes(
    State(state): State<AppState>,
    Path(uuid): Path<String>,
    query: Result<Query<ChangesQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let id = repo_id(&uuid)?;
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let number = |name: &str, raw: Option<&str>| {
        raw.and_then(|r| r.trim().parse::<u64>().ok())
            .map(VersionNumber::new)
            .ok_or_else(|| {
                ApiError::bad_request(format!("'{name}' must be a version number, e.g. {name}=3."))
            })
    };
    let from = number("from", query.from.as_deref())?;
    let to = number("to", query.to.as_deref())?;
    let comparison = compare(&state, &id, from, to)
        .await
        .map_err(|e| ApiError::from(WebError::from(e)))?;
    let headers = [(axum::http::header::CONTENT_TYPE, "application/json")];
    Ok((headers, json_body(&comparison, PackageFilter::default())).into_response())
}
