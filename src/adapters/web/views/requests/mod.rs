//! Approval requests: the answer to a deploy that needs approvals, the list of requests
//! (on `/requests` and on a repository's versions page) and one request's page, with the
//! same preview and diff as the confirm step and the type-to-confirm approval.

use std::sync::Arc;

use maud::{html, Markup};

use crate::domain::approval::listing::{StateFilter, STATE_WORDS};

use crate::app::approvals::requests::RequestView;
use crate::app::deploy::Preview;
use crate::domain::approval::RequestState;
use crate::domain::diff::VersionDiff;
use crate::domain::identity::PersonName;
use crate::ports::UpstreamError;

use super::layout::{back_link, notice, page};
use super::moment::time;
use crate::adapters::web::views::deploy::preview::{confirm_field, plan_summary};
use crate::adapters::web::views::deploy::requested::{label, request_facts};

/// A table of requests, newest first.
pub fn request_table(views: &[RequestView]) -> Markup {
    html! {
        div.table-wrap { table.requests {
            thead { tr {
                th scope="col" { "Request" } th scope="col" { "Repository" } th scope="col" { "Environment" }
                th scope="col" { "Change" } th scope="col" { "Requested by" } th scope="col" { "Approvals" }
                th scope="col" { "State" }
            } }
            tbody {
                @for view in views {
                    @let request = view.request();
                    tr data-request-id=(request.id) data-request-state=(view.state.word()) data-env=(request.environment) {
                        td { a href={ "/requests/" (request.id) } { (time(&request.created)) } }
                        td { bdi { (request.repository_name) } }
                        td { (request.environment) }
                        td { (label(request.asked_against)) " \u{2192} v" (request.target_version) }
                        td { bdi { (request.requester) } }
                        td { (view.state.approvers().len()) " of " (view.needed.max(1)) }
                        td { span class={ "request-state state-" (view.state.word()) } { (state_words(&view.state)) } }
                    }
                }
            }
        } }
    }
}

/// A request's state in words, naming who closed it.
/// Names as a comma-separated list.
fn names(people: &[PersonName]) -> String {
    let names: Vec<&str> = people.iter().map(PersonName::as_str).collect();
    names.join(", ")
}

fn state_words(state: &RequestState) -> String {
    match state {
        RequestState::Pending { .. } => "pending".into(),
        RequestState::Executing { .. } => "approved, deploy running".into(),
        RequestState::Scheduled { .. } => "approved, runs at its schedule's time".into(),
        RequestState::Executed { .. } => state.word().into(),
        RequestState::Rejected { by } => format!("rejected by {by}"),
        RequestState::Cancelled { by } => format!("cancelled by {by}"),
        RequestState::Expired => "expired".into(),
        RequestState::Stale { now_serving } => format!("stale (now serves {now_serving})"),
    }
}

/// The requests on a repository's versions page (none: nothing shown).
pub fn repository_requests(views: &[RequestView]) -> Markup {
    html! {
        @if !views.is_empty() {
            section.requests-section id="requests" aria-labelledby="requests-title" {
                h2 id="requests-title" { "Deploy requests" }
                (request_table(views))
            }
        }
    }
}

/// Where a page of `/requests` stands: its filter, whether it is not the first page, and the
/// link to the next one (none on the last).
pub struct Listing {
    pub filter: StateFilter,
    pub first: bool,
    pub next: Option<String>,
}

/// `/requests`: every request, a page at a time, with a filter by state and a pager.
pub fn requests_page(views: &[RequestView], listing: &Listing, unreadable: Option<&str>) -> Markup {
    page(
        "Deploy requests",
        html! {
            div.title-row { (back_link()) h1 { "Deploy requests" } }
            (state_form(listing.filter))
            @if let Some(why) = unreadable {
                (notice("error", Some("requests-unreadable"), html! { "The requests could not be read: " (why) }))
            }
            @if views.is_empty() && unreadable.is_none() {
                p.muted id="requests-empty" {
                    @match listing.filter.word() {
                        Some(state) => { "No " (state) " deploy request." }
                        None => { "No deploy request was made." }
                    }
                }
            } @else {
                (request_table(views))
            }
            (requests_pager(listing))
        },
    )
}

/// A GET form (no script) keeping the requests in one state.
fn state_form(filter: StateFilter) -> Markup {
    html! {
        form.compare-filter method="get" action="/requests" role="search" aria-label="Filter the requests" data-requests-filter {
            label for="requests-state" {
                "State"
                select #requests-state name="state" {
                    option value="" selected[filter.word().is_none()] { "Any state" }
                    @for word in STATE_WORDS {
                        option value=(word) selected[filter.word() == Some(word)] { (word) }
                    }
                }
            }
            button.primary type="submit" { "Show" }
        }
    }
}

/// Links to the first page (when this is not it) and to the next one (when there is one).
fn requests_pager(listing: &Listing) -> Markup {
    let first = match listing.filter.word() {
        Some(state) => format!("/requests?state={state}"),
        None => "/requests".to_owned(),
    };
    html! {
        @if listing.first || listing.next.is_some() {
            nav.pager aria-label="Pages of requests" data-requests-pager {
                @if listing.first { a href=(first) data-first { "\u{2190} Newest" } }
                @if let Some(next) = &listing.next { a href=(next) rel="next" data-next { "Older \u{2192}" } }
            }
        }
    }
}

/// What a request's page shows about the deploy it would run: the preview and diff now,
/// or why there is none.
pub type RequestPreview = Result<(Preview, Result<Arc<VersionDiff>, UpstreamError>), String>;

/// Whether the viewer may act on the request: `Err` says why not (shown on the disabled
/// button).
pub struct Actions {
    pub approve: Result<(), String>,
    pub reject: Result<(), String>,
    pub cancel: Result<(), String>,
}

/// `/requests/<id>`.
pub fn request_page(view: &RequestView, preview: &RequestPreview, actions: &Actions) -> Markup {
    let request = view.request();
    page(
        &format!(
            "Request to deploy v{} to {}",
            request.target_version, request.environment
        ),
        html! {
            div.title-row { (back_link()) h1 { "Deploy v" (request.target_version) " of " bdi { (request.repository_name) } " to " (request.environment) } }
            div.request data-request-id=(request.id) data-request-state=(view.state.word()) {
                p.request-status { "State: " strong class={ "request-state state-" (view.state.word()) } { (state_words(&view.state)) } ". "
                    (view.state.approvers().len()) " of " (view.needed.max(1)) " approvals"
                    @if !view.state.approvers().is_empty() { " (" (names(view.state.approvers())) ")" } "."
                    @if let RequestState::Executed { deploy_id, outcome, .. } = &view.state {
                        " Deploy " code data-deploy-id=(deploy_id.as_str()) { (deploy_id.as_str()) } ": "
                        @match outcome {
                            crate::domain::approval::ExecutionOutcome::Deployed => "deployed.",
                            crate::domain::approval::ExecutionOutcome::Failed { message } => (message),
                        }
                    }
                }
                section.panel.request-summary aria-labelledby="request-summary-title" {
                    h2 id="request-summary-title" { "The request" }
                    (request_facts(request))
                }
                div id="request-answer" {}
                @if view.state.is_open() {
                    section.panel.request-preview aria-labelledby="request-preview-title" {
                        h2 id="request-preview-title" { "What approving it deploys" }
                        @match preview {
                            Ok((preview, changes)) => {
                                @if preview.plan.current.map(|n| n.get()) != request.asked_against {
                                    (notice("warn", Some("request-moved"), html! {
                                        (request.environment) " serves " (label(preview.plan.current.map(|n| n.get())))
                                        " now, not " (label(request.asked_against)) " as when the request was made: approving it is refused (stale)."
                                    }))
                                }
                                (plan_summary(&preview.plan, changes))
                            }
                            Err(why) => (notice("warn", Some("request-preview"), html! { "No preview: " (why) })),
                        }
                    }
                    (action_forms(view, actions))
                }
            }
        },
    )
}

/// Approve (the repository's name typed), Reject and Cancel request: one form, one row;
/// Reject and Cancel post to their own address (`formaction`), the typed text unused.
fn action_forms(view: &RequestView, actions: &Actions) -> Markup {
    let id = &view.request().id;
    html! {
        section.panel.request-decision aria-labelledby="request-decision-title" {
            h2 id="request-decision-title" { "Decision" }
            form.confirm-form.approve-form method="post" action={ "/requests/" (id) "/approve" } data-confirm=(view.request().repository_name) {
                div.approve-field { (confirm_field(&view.request().repository_name)) }
                div.request-actions {
                    (action_button("Approve", "approve", "danger", None, &actions.approve))
                    (action_button("Reject", "reject", "ghost", Some(&format!("/requests/{id}/reject")), &actions.reject))
                    (action_button("Cancel request", "cancel", "ghost", Some(&format!("/requests/{id}/cancel")), &actions.cancel))
                }
            }
            @if let Err(why) = &actions.approve {
                p.muted.request-denied data-denied-why="approve" { (why) }
            }
        }
    }
}

fn action_button(
    text: &str,
    action: &str,
    class: &str,
    posts_to: Option<&str>,
    allowed: &Result<(), String>,
) -> Markup {
    html! {
        @match allowed {
            Ok(()) => button class=(class) type="submit" formaction=[posts_to] data-request-action=(action) { (text) },
            Err(why) => button class=(class) type="submit" formaction=[posts_to] data-request-action=(action) disabled data-denied="policy" title=(why) { (text) },
        }
    }
}
