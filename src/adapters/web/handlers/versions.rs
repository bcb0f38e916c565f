use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Query, State};
use serde::Deserialize;

use crate::app::facts::UnknownRepository;
use crate::app::promotion::policy_gate::blocked_everywhere;
use crate::app::{pages::versions, AppState};
use crate::domain::repository::{RepoId, Screen, VersionNumber, VERSIONS_PER_SCREEN};

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::extract::RepoPath;
use super::super::identity::Identified;
use super::super::views::versions::{version_anchor, versions_page};

#[derive(Deserialize)]
pub struct ScreenQuery {
    /// The screen, from 0.
    page: Option<u64>,
    /// A version number: answered with a redirect to the screen that shows it.
    at: Option<u64>,
}

/// GET /repos/{uuid}/versions[?page=N]: one screen of versions, newest first (404 when
/// Pulp has no such repository; the status of the failure, with the page saying why, when the
/// repository or its versions cannot be read). `?at=<version>` redirects to the screen of that version.
pub async fn show(
    State(state): State<AppState>,
    RepoPath(id): RepoPath,
    Extension(Identified(viewer)): Extension<Identified>,
    query: Result<Query<ScreenQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(|_| {
        WebError::BadRequest(
            "'page' must be a screen number (0, 1, 2…) and 'at' a version number.".into(),
        )
    })?;
    if let Some(number) = query.at {
        return screen_of(&state, &id, VersionNumber::new(number)).await;
    }
    let screen = Screen::new(query.page.unwrap_or(0), VERSIONS_PER_SCREEN);
    let mut page = versions::versions_page(&state, &id, screen)
        .await
        .map_err(WebError::from)?;
    page.blocked = blocked_everywhere(&state, viewer.as_ref().ok()).await;
    Ok(Answer::page(page.error.as_ref(), versions_page(&page)))
}

/// The redirect to the screen on which version `number` is.
async fn screen_of(
    state: &AppState,
    id: &RepoId,
    number: VersionNumber,
) -> Result<Answer, WebError> {
    let screen = versions::screen_of(state, id, number, VERSIONS_PER_SCREEN)
        .await
        .map_err(|error| match error {
            e if e.is_not_found() => WebError::NotFound(UnknownRepository(id.clone()).to_string()),
            e => WebError::said(
                &e,
                format!("Could not find the screen of {}: {e}", number.label()),
            ),
        })?;
    let to = format!(
        "/repos/{id}/versions?page={}#{}",
        screen.index(),
        version_anchor(number)
    );
    Ok(Answer::SeeOther(to))
}
