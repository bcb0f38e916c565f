//! What a deploy would change, as the confirm step and a deploy request's page both show
//! it: current -> target, the net package change, the distribution, the client checks and
//! the package and advisory diff; and the field where the repository's name is typed.

use std::sync::Arc;

use maud::{html, Markup};

use crate::domain::deploy::DeployPlan;
use crate::domain::diff::VersionDiff;
use crate::domain::repository::signed;
use crate::ports::UpstreamError;

use crate::adapters::web::views::changes::{diff_summary_of, SUMMARY_LIMIT};
use crate::adapters::web::views::compare::links::compare_href;
use crate::adapters::web::views::deploy::client_checks::client_warnings;
use crate::adapters::web::views::layout::notice;

/// What the deploy changes: current -> target, the net package change, the distribution,
/// the client checks and the package and advisory diff (the confirm step and a request's
/// page show the same).
pub fn plan_summary(
    plan: &DeployPlan,
    changes: &Result<Arc<VersionDiff>, UpstreamError>,
) -> Markup {
    plan_summary_of(plan, changes, None)
}

/// [`plan_summary`] of one of several repositories shown together (a release's members):
/// its landmarks named after `subject`.
pub fn plan_summary_of(
    plan: &DeployPlan,
    changes: &Result<Arc<VersionDiff>, UpstreamError>,
    subject: Option<&str>,
) -> Markup {
    let current = plan
        .current
        .map_or_else(|| "nothing deployed".to_owned(), |n| n.label());
    let net_class = match plan.net_change {
        c if c > 0 => "net plus",
        c if c < 0 => "net minus",
        _ => "net zero",
    };
    html! {
        dl.preview {
            div { dt { "Change" } dd { span.from { (current) } " \u{2192} " span.to { (plan.target_number().label()) } } }
            div { dt { "Net packages" } dd { span class=(net_class) data-net=(plan.net_change) { (signed(plan.net_change)) } } }
            div { dt { "Distribution" } dd { (plan.distribution.name) } }
        }
        (client_warnings(&plan.repo.verification))
        @if !plan.repo.content_type().has_advisories() {
            p.muted data-no-advisories=(plan.repo.content_type().as_str()) {
                (plan.repo.content_type().label()) " repositories carry no advisories: this deploy "
                "is told by its packages alone, each compared in " (plan.repo.content_type().label())
                " version order."
            }
        }
        (deploy_changes(plan, changes, subject))
    }
}

/// The field where the repository's name is typed.
pub fn confirm_field(name: &str) -> Markup {
    html! {
        label for="confirm-input" {
            "Type the repository name " code.repo-name { bdi { (name) } } " to confirm"
        }
        input id="confirm-input" name="confirm" type="text" autocomplete="off" spellcheck="false" autocapitalize="off";
    }
}

/// What the deploy changes, or why that could not be read (the deploy itself still works).
fn deploy_changes(
    plan: &DeployPlan,
    changes: &Result<Arc<VersionDiff>, UpstreamError>,
    subject: Option<&str>,
) -> Markup {
    let full = plan
        .current
        .map(|from| compare_href(&plan.repo.id, plan.target_number(), from, 1));
    match changes {
        Ok(diff) => diff_summary_of(diff, SUMMARY_LIMIT, full.as_deref(), subject),
        Err(error) => notice(
            "warn",
            Some("changes-error"),
            html! { "Could not read which packages and advisories this deploy changes: " (error)
            ". The deploy itself does not depend on it." },
        ),
    }
}
