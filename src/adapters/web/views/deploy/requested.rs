//! The answer to a deploy that needs approvals (the request it recorded, in the deploy's
//! modal), and what a request asks, also shown on the request's own page.

use maud::{html, Markup};

use crate::domain::approval::ApprovalRequest;

use crate::adapters::web::views::layout::notice;
use crate::adapters::web::views::moment::time;

/// The answer to a deploy that needs approvals: the request it recorded.
pub fn requested(request: &ApprovalRequest) -> Markup {
    html! {
        div.modal-backdrop {
            div.modal id="deploy-modal" role="dialog" aria-modal="true" aria-labelledby="deploy-title" data-confirm="" {
                h2 id="deploy-title" { "Deploy requested" }
                div data-request-id=(request.id) data-request-state="pending" {
                    (notice("info", Some("request-made"), html! {
                        "Nothing was deployed yet: a deploy to " (request.environment) " needs approval. "
                        "Request " a href={ "/requests/" (request.id) } { code { (request.id) } } " was recorded."
                    }))
                    (request_facts(request))
                }
                div.modal-actions { button.ghost type="button" data-modal-cancel { "Close" } }
            }
        }
    }
}

/// What a request asks: repository, environment, version, against what, by whom, why, when.
pub(crate) fn request_facts(request: &ApprovalRequest) -> Markup {
    html! {
        dl.preview.request-facts {
            div { dt { "Repository" } dd { a href={ "/repos/" (request.repository_uuid) "/versions" } { bdi { (request.repository_name) } } } }
            div { dt { "Environment" } dd data-env=(request.environment) { (request.environment) } }
            div { dt { "Version" } dd {
                span.from data-asked-against=[request.asked_against] { (label(request.asked_against)) }
                " \u{2192} " span.to data-version=(request.target_version) { "v" (request.target_version) }
                @if request.kind == crate::domain::deploy::DeployKind::Rollback { " (rollback)" }
            } }
            div { dt { "Requested by" } dd { bdi.who data-requester=(request.requester) { (request.requester) } } }
            div { dt { "Reason" } dd { (request.reason.as_deref().unwrap_or("none given")) } }
            @if request.override_freeze { div { dt { "Freeze" } dd data-override="freeze" { "deploys through the freeze (override)" } } }
            div { dt { "Requested" } dd { (time(&request.created)) } }
            div { dt { "Expires" } dd { (time(&request.expires)) } }
        }
    }
}

pub(crate) fn label(version: Option<u64>) -> String {
    version.map_or_else(|| "nothing".to_owned(), |n| format!("v{n}"))
}
