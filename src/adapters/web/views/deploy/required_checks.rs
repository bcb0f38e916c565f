//! The confirm step's required checks: each check the environment requires, as it stands on
//! the environment before it (`data-check`, `data-check-state`, the run's link), and, when
//! some are unmet, the override offered to those listed in the environment's `override`.

use maud::{html, Markup};

use crate::domain::environment::EnvironmentName;
use crate::domain::policy::checks::ChecksVerdict;

use crate::adapters::web::views::layout::notice;

/// Each required check of the version going to `environment`, with its state.
pub fn checks_panel(environment: &EnvironmentName, verdict: &ChecksVerdict) -> Markup {
    let kind = if verdict.all_passed() { "info" } else { "warn" };
    notice(
        kind,
        Some("required-checks"),
        html! {
            div data-required-checks=(environment) {
                strong { "Required checks on " (verdict.checked_in) ": " }
                ul.check-list {
                    @for standing in &verdict.standings {
                        li data-check=(standing.name) data-check-state=(standing.state.as_str()) data-check-env=(verdict.checked_in) {
                            (standing.name) ": " (standing.state.as_str())
                            @if let Some(url) = &standing.url {
                                " (" a href=(url.as_str()) rel="noopener noreferrer" { "the " (standing.name) " run" } ")"
                            }
                        }
                    }
                }
            }
        },
    )
}

/// Offered when required checks are unmet to someone who may override them: a box to tick,
/// and (beside it) the reason.
pub fn checks_override_field(environment: &EnvironmentName) -> Markup {
    html! {
        p.muted { "You may deploy without them (you are listed in the override of " (environment) "): tick the box and say why." }
        label.checkbox for="override-input" {
            input id="override-input" name="override" type="checkbox" value="1";
            " Override the required checks of " (environment)
        }
    }
}
