//! GET /repos/{uuid}/versions/{n}/changes?against=M[&kind=K][&name=S][&page=P]: the compare page.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use maud::html;

use crate::app::diffs::compare::{compare, CompareError};
use crate::app::AppState;
use crate::domain::repository::RepoId;
use crate::ports::UpstreamError;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::views::compare::compare_page;
use super::super::views::layout::{error_page, notice};
use super::compare_query::CompareQuery;

pub async fn show(
    State(state): State<AppState>,
    Path((uuid, n)): Path<(String, String)>,
    query: Result<Query<CompareQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let asked = query.read(&uuid, &n)?;
    match compare(&state, &asked.id, asked.from, asked.to).await {
        Ok(comparison) => Ok(Answer::Shown(compare_page(
            &comparison,
            &asked.filter,
            asked.page,
        ))),
        Err(CompareError::Upstream(e)) if !e.is_not_found() => Ok(upstream_failure(&asked.id, &e)),
        Err(error) => Err(error.into()),
    }
}

/// Pulp could not give the comparison: the status says how (see `web/status.rs`).
fn upstream_failure(id: &RepoId, error: &UpstreamError) -> Answer {
    let message = error.to_string();
    let notice = notice(
        "error",
        Some("page-error"),
        html! { (message.trim_end_matches('.')) ". Try again; if it persists, check Pulp." },
    );
    let body = error_page("Changes not available", notice, Some(id));
    Answer::as_of(error, body)
}
