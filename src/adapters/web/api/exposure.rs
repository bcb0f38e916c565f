//! `GET /api/v1/exposure`: the exposure page's answer as JSON, from the same use case:
//! `{"query": {…}, "advisories": [ids], "summary": {…}, "rows": [{"repository",
//! "repository_uuid", "environment", "version", "state", "packages": [{"name", "arch",
//! "evr"}], …}]}`. A read: no token needed (a `read` token is enough).

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::exposure::{exposure, ExposureAnswer, ExposureRow};
use crate::app::AppState;
use crate::domain::diff::Package;
use crate::domain::repository::VersionNumber;

use super::super::exposure_params::ExposureParams;
use super::error::{ApiError, ErrorBody};

#[derive(Debug, Serialize, ToSchema)]
pub struct ExposureBody {
    /// The question as understood: `package`, `arch`, `below`, `advisory` or `cve`.
    pub query: BTreeMap<String, String>,
    /// The advisories judged: the one asked, or every advisory whose references name the CVE.
    pub advisories: Vec<String>,
    /// Per environment, the number of cells in each state (`affected`, `fixed`, `served`,
    /// `absent`, `unknown`; states with none left out).
    pub summary: BTreeMap<String, BTreeMap<String, usize>>,
    /// A CVE question: the CVE index it was answered from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<IndexBody>,
    /// A row per repository and environment (`affected=1`: the affected ones only).
    pub rows: Vec<RowBody>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct IndexBody {
    /// Advisory units indexed.
    pub advisories: usize,
    /// When it was brought up to date (RFC 3339).
    pub refreshed: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RowBody {
    pub repository: String,
    pub repository_uuid: String,
    pub environment: String,
    /// The version served; null when none (or unknown).
    pub version: Option<u64>,
    /// `affected`, `fixed`, `served`, `absent` or `unknown`.
    pub state: String,
    /// The newest build of each name and arch judged (what dnf would install).
    pub packages: Vec<BuildBody>,
    /// Older builds of the same names still served (not judged).
    pub older_builds_served: Vec<BuildBody>,
    /// `unknown`: what could not be read from Pulp.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `affected`: the oldest newer version of the repository that is fixed (among those its
    /// environments serve and its latest).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_in: Option<u64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BuildBody {
    pub name: String,
    pub arch: String,
    /// `[epoch:]version-release`.
    pub evr: String,
}

fn build(p: &Package) -> BuildBody {
    BuildBody {
        name: p.name.clone(),
        arch: p.arch.clone(),
        evr: p.evr.to_string(),
    }
}

fn row(r: &ExposureRow) -> RowBody {
    RowBody {
        repository: r.repository.clone(),
        repository_uuid: r.repository_uuid.to_string(),
        environment: r.environment.to_string(),
        version: r.version.map(VersionNumber::get),
        state: r.state.as_str().to_owned(),
        packages: r.packages.iter().map(build).collect(),
        older_builds_served: r.older_builds_served.iter().map(build).collect(),
        reason: r.reason.clone(),
        fixed_in: r.fixed_in.map(VersionNumber::get),
    }
}

fn body(answer: &ExposureAnswer, affected_only: bool) -> ExposureBody {
    ExposureBody {
        query: answer
            .query
            .pairs()
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect(),
        advisories: answer.advisories.clone(),
        summary: answer
            .summary()
            .into_iter()
            .map(|(env, counts)| {
                let counts = counts
                    .into_iter()
                    .map(|(state, n)| (state.as_str().to_owned(), n))
                    .collect();
                (env.to_string(), counts)
            })
            .collect(),
        index: answer.index.map(|i| IndexBody {
            advisories: i.advisories,
            refreshed: i.refreshed.map(|t| t.to_rfc3339()),
        }),
        rows: answer
            .rows
            .iter()
            .filter(|r| {
                !affected_only || r.state == crate::domain::exposure::ExposureState::Affected
            })
            .map(row)
            .collect(),
    }
}

/// Where a package, an advisory or a CVE is served, in every repository and environment.
#[utoipa::path(get, path = "/api/v1/exposure", operation_id = "getExposure", params(ExposureParams), tag = "exposure",
    responses((status = 200, body = ExposureBody), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 502, body = ErrorBody), (status = 503, body = ErrorBody), (status = 504, body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    query: Result<Query<ExposureParams>, QueryRejection>,
) -> Result<Json<ExposureBody>, ApiError> {
    let Query(params) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let question = params
        .query()
        .map_err(|bad| ApiError::of(&bad))?
        .ok_or_else(|| ApiError::bad_request("Ask a question: package=, advisory= or cve=."))?;
    let answer = exposure(&state, &question)
        .await
        .map_err(|e| ApiError::exposure(&e))?;
    Ok(Json(body(&answer, params.affected_only())))
}
