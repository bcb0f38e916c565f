//! Scheduled deploys on the pages: `/schedules` lists them, and a waiting one is cancelled
//! by a plain form post (answered with a redirect to the list, or the refusal's page). They
//! are made by the deploy form's `at` (see `deploy.rs`).

use axum::extract::{Extension, Path, State};
use maud::html;

use crate::app::schedules::{cancel, list};
use crate::app::AppState;
use crate::domain::ids::ScheduleId;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::identity::{refusal_text, Identified};
use super::super::status::Refused;
use super::super::views::layout::{error_page, notice};
use super::super::views::schedules::schedules_page;

/// GET /schedules: every schedule, newest made first.
pub async fn list(State(state): State<AppState>) -> Result<Answer, WebError> {
    Ok(match list::recent(&state, None).await {
        Ok(listed) => Answer::Shown(schedules_page(&listed, None)),
        Err(error) => Answer::as_of(
            &error,
            schedules_page(&list::Listed::default(), Some(&error.to_string())),
        ),
    })
}

/// POST /schedules/{id}/cancel: its author, or a deployer of its environment, withdraws it.
pub async fn cancel(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    Extension(Identified(sender)): Extension<Identified>,
) -> Result<Answer, WebError> {
    let refused = |title: &str, text: String| {
        error_page(
            title,
            notice("error", Some("schedule-error"), html! { (text) }),
            None,
        )
    };
    let operator = match sender {
        Ok(operator) => operator,
        Err(why) => {
            let page = refused("Not cancelled", refusal_text("Cancellation", &why));
            return Ok(Answer::as_of(&why, page));
        }
    };
    let Some(id) = ScheduleId::parse(&raw) else {
        let page = refused("No such schedule", format!("There is no schedule {raw}."));
        return Ok(Answer::as_of(&Refused::NotFound, page));
    };
    Ok(match cancel::cancel(&state, &id, &operator).await {
        Ok(_) => Answer::SeeOther("/schedules".to_owned()),
        Err(error) => Answer::as_of(&error, refused("Not cancelled", error.to_string())),
    })
}
