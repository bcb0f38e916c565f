//! GET /repos/{uuid}/versions/{n}/changes?against=M[&page=P]: the compare page.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use crate::app::changes::{compare, CompareError};
use crate::app::AppState;
use crate::domain::{RepoId, VersionNumber};
use crate::ports::UpstreamError;

use super::super::errors::WebError;
use super::super::extract::version_number;
use super::super::status;
use super::super::views::compare::compare_page;
use super::super::views::layout::{error_page, notice};

#[derive(Deserialize)]
pub struct CompareQuery {
    against: Option<String>,
    page: Option<String>,
}

pub async fn show(
    State(state): State<AppState>,
    Path((uuid, n)): Path<(String, String)>,
    query: Result<Query<CompareQuery>, QueryRejection>,
) -> Result<Response, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let id = RepoId::parse(&uuid).map_err(|e| WebError::NotFound(e.to_string()))?;
    let to = number(Some(&n), "version")?;
    let from = number(query.against.as_deref(), "against")?;
    let page_number = match query.page.as_deref() {
        None | Some("") => 1,
        Some(raw) => raw
            .trim()
            .parse()
            .map_err(|_| WebError::BadRequest("'page' must be a page number such as 2.".into()))?,
    };
    match compare(&state, &id, from, to).await {
        Ok(comparison) => Ok(compare_page(&comparison, page_number).into_response()),
        Err(CompareError::Upstream(e)) if !e.is_not_found() => Ok(upstream_failure(&id, &e)),
        Err(error) => Err(error.into()),
    }
}

fn number(raw: Option<&str>, what: &str) -> Result<VersionNumber, WebError> {
    let missing =
        format!("Which version to compare against is missing: add ?{what}=N (a version number).");
    version_number(raw, Some(what), &missing)
}

/// Pulp could not give the comparison: the status says how (see [`status::upstream`]).
fn upstream_failure(id: &RepoId, error: &UpstreamError) -> Response {
    let message = error.to_string();
    let notice = notice(
        "error",
        Some("page-error"),
        html! { (message.trim_end_matches('.')) ". Try again; if it persists, check Pulp." },
    );
    let body = error_page("Changes not available", notice, Some(id));
    (status::upstream(error), body).into_response()
}
