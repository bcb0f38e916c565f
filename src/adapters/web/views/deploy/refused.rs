//! What a deploy that did not deploy says (also an approval's, which may run one), in the
//! modal for htmx or as a page: refused, not started, failed, or recorded for approval; and a
//! preview that cannot be shown. Its status is the outcome's (see `web/status.rs`).

use maud::{html, Markup};

use crate::app::deploy::{DeployOutcome, PreviewError};
use crate::domain::deploy::Refusal;
use crate::domain::environment::EnvironmentName;
use crate::domain::policy::Denied;
use crate::domain::repository::RepoId;
use crate::ports::Unidentified;

use crate::adapters::web::identity::refusal_text;
use crate::adapters::web::views::deploy::failure_message;
use crate::adapters::web::views::deploy::requested::requested;
use crate::adapters::web::views::layout::{error_page, notice};
use crate::adapters::web::views::modal::message_modal;

/// In the modal for htmx, as a page of repository `id` otherwise.
pub fn modal_or_page(hx: bool, id: &RepoId, title: &str, message: Markup) -> Markup {
    if hx {
        message_modal(title, message)
    } else {
        error_page(title, message, Some(id))
    }
}

/// The title and message of a deploy's outcome that is not a deploy done; a refusal names
/// `environment` as unchanged when the request was read far enough to know it.
pub fn not_deployed(
    outcome: &DeployOutcome,
    environment: Option<&EnvironmentName>,
) -> (&'static str, Markup) {
    match outcome {
        DeployOutcome::Refused(refusal) => (
            "Deploy refused",
            tagged(
                refusal,
                error_notice(&format!("{refusal} {}", not_changed(environment))),
            ),
        ),
        DeployOutcome::NotStarted(why) => (
            "Deploy not started",
            error_notice(&format!(
                "{} {}",
                sentence(why.to_string()),
                not_changed(environment)
            )),
        ),
        DeployOutcome::Failed {
            plan,
            step,
            error,
            production_changed,
            task,
            audit,
            ..
        } => (
            "Deploy failed",
            failure_message(
                &plan.environment,
                *step,
                error,
                *production_changed,
                task.as_ref(),
                audit,
            ),
        ),
        DeployOutcome::Deployed { .. } => ("Deployed", html! {}),
        DeployOutcome::Requested(request) => ("Deploy requested", requested(request)),
    }
}

/// A deploy refused because the sender is not known.
pub fn unidentified(why: &Unidentified) -> Markup {
    let message = error_notice(&refusal_text("Deploy", why));
    html! { (message) p { (not_changed(None)) } }
}

/// What a refusal left as it was: the environment it concerns when the request was read far
/// enough to know it, else everything.
pub fn not_changed(environment: Option<&EnvironmentName>) -> String {
    let Some(environment) = environment else {
        return "Nothing was changed.".to_owned();
    };
    let name = environment.to_string();
    let mut letters = name.chars();
    let first = letters.next().map(|c| c.to_uppercase().collect::<String>());
    format!(
        "{}{} was not changed.",
        first.unwrap_or_default(),
        letters.as_str()
    )
}

/// The modal of a preview the viewer may not deploy.
pub fn not_allowed(denied: &Denied) -> Markup {
    message_modal("Deploy not allowed", error_notice(&denied.to_string()))
}

/// The modal of a preview that cannot be shown.
pub fn not_possible(error: &PreviewError) -> Markup {
    let message = error_notice(&sentence(error.to_string()));
    let message = match error {
        PreviewError::Refused(refusal) => tagged(refusal, message),
        PreviewError::Unreadable(_) | PreviewError::ChecksUnreadable(_) => message,
    };
    message_modal("Deploy not possible", message)
}

/// A refusal's message, marked for the refusals pages and scripts tell apart: out of order
/// (`data-refusal="out-of-order"`, warned and refused at once where the environment requires
/// the previous one), a freeze (`data-refusal="freeze"`) and required checks not passed
/// (`data-refusal="checks_missing"`, each unmet check with its state).
fn tagged(refusal: &Refusal, message: Markup) -> Markup {
    match refusal {
        Refusal::OutOfOrder { skips, .. } => html! {
            div data-warning="out-of-order" data-refusal="out-of-order" data-skips=(skips) { (message) }
        },
        Refusal::Frozen { environment, .. } => html! {
            div data-refusal="freeze" data-env=(environment) { (message) }
        },
        Refusal::Soak(soak) => html! {
            div data-refusal="soak" data-env=(soak.environment) data-soak-until=[&soak.until] { (message) }
        },
        Refusal::ChecksMissing {
            environment,
            checked_in,
            unmet,
            ..
        } => html! {
            div data-refusal="checks_missing" data-env=(environment) {
                (message)
                ul.check-list aria-label={ "Required checks on " (checked_in) } {
                    @for (name, state) in &unmet.0 {
                        li data-check=(name) data-check-state=(state.as_str()) data-check-env=(checked_in) {
                            (name) ": " (state.as_str())
                        }
                    }
                }
            }
        },
        _ => message,
    }
}

/// Ends `text` with one period (upstream's messages may already end with one).
fn sentence(text: String) -> String {
    if text.ends_with('.') {
        text
    } else {
        text + "."
    }
}

fn error_notice(text: &str) -> Markup {
    notice("error", Some("deploy-error"), html! { (text) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::UpstreamError;

    #[test]
    fn a_message_ends_with_exactly_one_period() {
        let auth = UpstreamError::Auth("Invalid username/password.".into());
        let why = sentence(format!("Could not read the repository from Pulp: {auth}"));
        assert!(
            why.ends_with("the console's log has the details).") && !why.contains(".."),
            "{why}"
        );
        let http = UpstreamError::Http {
            status: 500,
            message: "boom".into(),
        };
        let why = sentence(format!("Could not read the repository from Pulp: {http}"));
        assert!(why.ends_with("details).") && !why.contains("boom"), "{why}");
    }
}
