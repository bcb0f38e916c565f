//! The edges on the pages: `/edges` shows what each edge Pulp serves, and a plain form post
//! asks one to replicate again (answered with a redirect to the page, or the refusal's page).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Extension, Path, Query, State};
use maud::html;

use crate::app::edges::{again, view};
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::extract::parse_environment;
use super::super::identity::{refusal_text, Identified};
use super::super::views::edges::{edge_line, edges_page};
use super::super::views::layout::{error_page, notice};

/// GET /edges: every edge, as last judged (nothing is read upstream: the page never waits
/// for an edge).
pub async fn list(State(state): State<AppState>) -> Result<Answer, WebError> {
    Ok(Answer::Shown(edges_page(
        &view::rows(&state.edge_world()).await,
    )))
}

/// POST /edges/{name}/replicate: someone who may deploy to the environments it copies asks
/// the edge to replicate now.
pub async fn replicate(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Extension(Identified(sender)): Extension<Identified>,
) -> Result<Answer, WebError> {
    let refused = |text: String| {
        error_page(
            "Not replicated",
            notice("error", Some("edge-error"), html! { (text) }),
            None,
        )
    };
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            return Ok(Answer::as_of(
                &why,
                refused(refusal_text("Replication", &why)),
            ))
        }
    };
    Ok(match again::ask(&state.edge_world(), &operator, &name) {
        Ok(_) => Answer::SeeOther("/edges".to_owned()),
        Err(error) => Answer::as_of(&error, refused(error.to_string())),
    })
}

/// Which line `/edges/line` answers.
#[derive(Debug, serde::Deserialize)]
pub struct LineQuery {
    env: Option<String>,
    distribution: String,
}

/// GET /edges/line?env=&distribution=: the line "production: moved; edges: 1 of 2 serve it"
/// of one distribution, as last judged (asked again by the deploy's answer and the versions
/// page until every edge serves it); an empty line when no edge copies it.
pub async fn line(
    State(state): State<AppState>,
    query: Result<Query<LineQuery>, QueryRejection>,
) -> Result<Answer, WebError> {
    let Query(query) = query.map_err(WebError::rejected)?;
    let environment = parse_environment(state.environments(), query.env.as_deref())?;
    Ok(Answer::Shown(
        match view::line(&state.edge_world(), &environment, &query.distribution).await {
            Some(line) => edge_line(&line),
            None => html! { p.edge-line data-edge-line="" { "No edge copies this distribution." } },
        },
    ))
}
