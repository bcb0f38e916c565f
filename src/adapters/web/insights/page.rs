//! `GET /insights`: the filters (repository, release, environment, 7/30/90 days or a range),
//! the figures of every environment in one table, then each environment's charts with their
//! numbers, and links to the same figures as JSON and CSV.

use axum::extract::{Query, State};
use maud::{html, Markup};

use crate::app::insights::{figures, InsightsView};
use crate::app::AppState;
use crate::domain::insights::Figures;

use super::super::answer::Answer;
use super::super::errors::WebError;
use super::super::views::layout::{notice, page};
use super::api::InsightsQuery;
use super::charts::{duration, environment_charts, percent};

/// The page, or the filter form with the refusal when the filter is not one.
pub async fn insights(
    State(state): State<AppState>,
    Query(query): Query<InsightsQuery>,
) -> Result<Answer, WebError> {
    Ok(match figures(&state, &query.asked()).await {
        Ok(view) => Answer::Shown(insights_page(&state, &query, Some(&view), None)),
        Err(error) => Answer::as_of(
            &error,
            insights_page(&state, &query, None, Some(&error.to_string())),
        ),
    })
}

fn insights_page(
    state: &AppState,
    query: &InsightsQuery,
    view: Option<&InsightsView>,
    error: Option<&str>,
) -> Markup {
    page(
        "Insights",
        html! {
            div.title-row { h1 { "Insights" } }
            p.muted { "How often, how fast and how safely versions reach each environment, from the audit log and Pulp's version creation times. "
                a href="/api/v1/openapi.json" { "The same figures as JSON" } " (" code { "GET /api/v1/insights" } ")." }
            (filters(state, query))
            @if let Some(error) = error {
                (notice("error", Some("insights-error"), html! { (error) }))
            }
            @if let Some(view) = view {
                (summary(view))
                (downloads(query))
                @for e in &view.figures.environments {
                    section.insights-environment data-insights-environment=(e.environment.as_str()) aria-labelledby=(format!("env-{}", e.environment.as_str())) {
                        h2 id=(format!("env-{}", e.environment.as_str())) { (e.environment.as_str()) }
                        (environment_charts("insights", e))
                    }
                }
            }
        },
    )
}

/// The filter form: a GET, so a view is a link to share.
fn filters(state: &AppState, query: &InsightsQuery) -> Markup {
    let days = query.days().unwrap_or("30");
    html! {
        form.insights-filters method="get" action="/insights" data-insights-filters {
            label { "Repository (name or UUID) " input type="text" name="repository" value=[query.repository()]; }
            label { "Release "
                select name="release" {
                    option value="" { "all" }
                    @for release in state.releases().iter() {
                        option value=(release.name.as_str()) selected[query.release() == Some(release.name.as_str())] { (release.name.as_str()) }
                    }
                }
            }
            label { "Environment "
                select name="environment" {
                    option value="" { "all" }
                    @for env in state.environments().iter() {
                        option value=(env.name.as_str()) selected[query.environment() == Some(env.name.as_str())] { (env.name.as_str()) }
                    }
                }
            }
            fieldset.insights-range {
                legend { "Over" }
                @for d in ["7", "30", "90"] {
                    label { input type="radio" name="days" value=(d) checked[query.from().is_none() && days == d]; " " (d) " days" }
                }
                label { "or from " input type="date" name="from" value=[query.from()]; }
                label { " to " input type="date" name="to" value=[query.to()]; }
            }
            button type="submit" { "Show" }
        }
    }
}

/// Every environment's figures in one table.
fn summary(view: &InsightsView) -> Markup {
    let figures: &Figures = &view.figures;
    html! {
        p data-insights-range {
            "From " (view.scope.from.format("%Y-%m-%d %H:%M UTC").to_string()) " to " (view.scope.to.format("%Y-%m-%d %H:%M UTC").to_string())
            @if let Some((_, name)) = &view.repository { ", repository " bdi { (name) } }
            @if let Some(release) = &view.scope.release { ", release " bdi { (release.as_str()) } }
            "."
        }
        @if figures.environments.is_empty() {
            (notice("info", Some("insights-empty"), html! { "Nothing arrived in this range: no deploy, rollback or check." }))
        } @else {
            // Focusable: on a narrow screen the table scrolls sideways, by keyboard too.
            div.table-wrap tabindex="0" role="region" aria-label="Figures per environment" { table.insights-summary data-insights-summary {
                caption { "Figures per environment (medians and 90th percentiles are nearest-rank)" }
                thead { tr {
                    th scope="col" { "Environment" } th scope="col" { "Deploys" } th scope="col" { "Rollbacks" }
                    th scope="col" { "Lead time, median" } th scope="col" { "Lead time, p90" }
                    th scope="col" { "Change failure rate" } th scope="col" { "Time to restore, median" } th scope="col" { "Time to restore, p90" }
                    th scope="col" { "Approval wait, median" } th scope="col" { "Approval wait, p90" }
                    th scope="col" { "Check pass rate" } th scope="col" { "Time in soak, median" }
                } }
                tbody {
                    @for e in &figures.environments {
                        tr data-insights-row=(e.environment.as_str()) {
                            th scope="row" { (e.environment.as_str()) }
                            td data-figure="deploys" { (e.deploys) }
                            td data-figure="rollbacks" { (e.rollbacks) }
                            td data-figure="lead-median" { (duration(e.lead_time_seconds.median)) }
                            td data-figure="lead-p90" { (duration(e.lead_time_seconds.p90)) }
                            td data-figure="change-failure-rate" { (percent(e.change_failure_rate)) " (" (e.failed_deploys) ")" }
                            td data-figure="restore-median" { (duration(e.time_to_restore_seconds.median)) }
                            td data-figure="restore-p90" { (duration(e.time_to_restore_seconds.p90)) }
                            td data-figure="approval-median" { (duration(e.approval_wait_seconds.median)) }
                            td data-figure="approval-p90" { (duration(e.approval_wait_seconds.p90)) }
                            td data-figure="check-pass-rate" { (percent(e.check_pass_rate)) }
                            td data-figure="soak-median" { (duration(e.soak_seconds.median)) }
                        }
                    }
                }
            } }
        }
    }
}

/// Links to the same view as JSON and CSV.
fn downloads(query: &InsightsQuery) -> Markup {
    let params = query.to_query_string();
    let join = if params.is_empty() { "" } else { "&" };
    html! {
        p.downloads {
            "Download: "
            a href=(format!("/api/v1/insights?{params}")) data-download="json" { "JSON" } " · "
            a href=(format!("/api/v1/insights?{params}{join}format=csv")) data-download="csv" { "CSV" }
        }
    }
}
