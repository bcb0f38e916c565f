//! The versions page's unpin form: the use case, then back to the page (or the refusal's
//! page, with its status).

use axum::extract::rejection::FormRejection;
use axum::extract::{Extension, Path, State};
use axum::Form;
use maud::html;
use serde::Deserialize;

use crate::app::pins::unpin::unpin as lift_pin;
use crate::app::AppState;
use crate::domain::repository::RepoId;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::identity::Identified;
use super::super::views::layout::{error_page, notice};

#[derive(Deserialize)]
pub struct UnpinForm {
    reason: Option<String>,
}

/// POST /repos/{uuid}/environments/{env}/unpin with `reason`: back to the versions page.
pub async fn unpin(
    State(state): State<AppState>,
    Path((uuid, environment)): Path<(String, String)>,
    Extension(Identified(sender)): Extension<Identified>,
    form: Result<Form<UnpinForm>, FormRejection>,
) -> Result<Answer, WebError> {
    let id = RepoId::parse(&uuid)
        .map_err(|_| WebError::NotFound(format!("No repository has the identifier '{uuid}'.")))?;
    let refused = |text: String| {
        error_page(
            "Not unpinned",
            notice("error", Some("unpin-error"), html! { (text) }),
            None,
        )
    };
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => return Ok(Answer::as_of(&why, refused(format!("Unpin refused: {why}")))),
    };
    let Form(form) = form.map_err(WebError::rejected)?;
    let reason = form.reason.unwrap_or_default();
    Ok(
        match lift_pin(&state, &id, &environment, &operator, &reason).await {
            Ok(_) => Answer::SeeOther(format!("/repos/{id}/versions")),
            Err(error) => Answer::as_of(&error, refused(error.to_string())),
        },
    )
}
