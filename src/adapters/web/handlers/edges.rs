//! The edges on the pages: `/edges` shows what each edge Pulp serves, and a plain form post
//! asks one to replicate again (answered with a redirect to the page, or the refusal's page).

use axum::extract::{Extension, Path, State};
use maud::html;

use crate::app::edges::{again, view};
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::identity::{refusal_text, Identified};
use super::super::views::edges::edges_page;
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
