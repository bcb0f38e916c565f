//! The insights' section of a repository's versions page: a placeholder the page draws at
//! once (`section_placeholder`, with a link to `/insights?repository=…`), which htmx fills
//! from `GET /insights/section?repository=<uuid>` with the repository's figures over the
//! last 90 days, so the versions page itself reads nothing more.

use axum::extract::{Query, State};
use maud::{html, Markup};

use crate::app::insights::{figures, Asked};
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::views::layout::notice;
use super::charts::{duration, percent};

/// The days the section covers.
const SECTION_DAYS: &str = "90";

/// What the versions page draws: a heading, a link to the whole page, and the region htmx
/// fills.
pub fn section_placeholder(uuid: &str) -> Markup {
    html! {
        section.insights-section aria-labelledby="insights-section-title" data-insights-section {
            h2 id="insights-section-title" { "Delivery, last 90 days" }
            div hx-get=(format!("/insights/section?repository={uuid}")) hx-trigger="load" hx-swap="innerHTML" {
                p { a href=(format!("/insights?repository={uuid}&days=90")) { "Insights of this repository" } }
            }
        }
    }
}

#[derive(Debug, serde::Deserialize)]
pub struct SectionQuery {
    repository: String,
}

/// GET /insights/section?repository=<uuid>: the repository's figures per environment.
pub async fn section(
    State(state): State<AppState>,
    Query(query): Query<SectionQuery>,
) -> Result<Answer, WebError> {
    let asked = Asked {
        repository: Some(query.repository.clone()),
        days: Some(SECTION_DAYS.to_owned()),
        ..Asked::default()
    };
    let link = format!("/insights?repository={}&days=90", query.repository);
    Ok(match figures(&state, &asked).await {
        Ok(view) => Answer::Shown(html! {
            @if view.figures.environments.is_empty() {
                p { "Nothing arrived in the last 90 days." }
            } @else {
                // Focusable: on a narrow screen the table scrolls sideways, by keyboard too.
                div.table-wrap tabindex="0" role="region" aria-label="Insights, last 90 days" { table data-insights-summary {
                    caption { "Figures per environment, last 90 days" }
                    thead { tr {
                        th scope="col" { "Environment" } th scope="col" { "Deploys" } th scope="col" { "Lead time, median" }
                        th scope="col" { "Change failure rate" } th scope="col" { "Time to restore, median" } th scope="col" { "Approval wait, median" }
                    } }
                    tbody { @for e in &view.figures.environments {
                        tr data-insights-row=(e.environment.as_str()) {
                            th scope="row" { (e.environment.as_str()) }
                            td { (e.deploys) }
                            td { (duration(e.lead_time_seconds.median)) }
                            td { (percent(e.change_failure_rate)) }
                            td { (duration(e.time_to_restore_seconds.median)) }
                            td { (duration(e.approval_wait_seconds.median)) }
                        }
                    } }
                } }
            }
            p { a href=(link) { "Charts and the weeks, on the insights page" } }
        }),
        Err(error) => Answer::as_of(
            &error,
            notice("error", Some("insights-error"), html! { (error.to_string()) }),
        ),
    })
}
