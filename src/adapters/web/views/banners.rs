//! The notices about production shown above a page or in the confirm step: the banner after a
//! deploy or rollback, drift (production changed outside the console), the warning that a
//! deploy overwrites such a change, and an environment's freeze.

use maud::{html, Markup};

use crate::domain::deploy::DeployPlan;
use crate::domain::environment::EnvironmentName;
use crate::domain::history::Drift;
use crate::ports::AuditError;

use super::layout::notice;
use super::moment::{shown, time};

/// The completion banner, naming the environment deployed to and its distribution.
pub fn success_banner(plan: &DeployPlan, audit: &Result<(), AuditError>) -> Markup {
    let from = plan
        .current
        .map_or_else(|| "nothing".to_owned(), |n| n.label());
    html! {
        (notice("ok", Some("deploy-banner"), html! {
            strong data-env=(plan.environment) { "Deployed to " (plan.environment) ". " }
            (plan.distribution.name) " now serves " (plan.target_number().label())
            " of " bdi { (plan.repo.display_name()) } " (was " (from) ")."
        }))
        @if let Err(error) = audit {
            (notice("error", Some("audit-error"), html! {
                strong { "The audit line was NOT written: " } (error)
                ". Record this deploy by hand and fix the audit log."
            }))
        }
    }
}

/// Production was changed behind the console's back: who and when, from Pulp's record.
pub fn drift_banner(drift: &Drift) -> Markup {
    notice(
        "warn",
        Some("drift-banner"),
        html! {
            span data-drift {
                strong { "Production was changed outside the console. " }
                @match &drift.change {
                    Some(change) => {
                        "Pulp user " bdi { (change.by) } " changed the production distribution at "
                        (time(&change.at))
                        " (task " code { (change.task) } "). "
                    }
                    None => { "It no longer serves what the console's last deploy set. " }
                }
                "The next deploy will overwrite this change."
            }
        },
    )
}

/// In the confirmation: this deploy overwrites a change made outside the console.
pub fn overwrite_warning(drift: &Drift) -> Markup {
    notice(
        "warn",
        Some("overwrite-warning"),
        html! {
            span data-overwrites-outside-change {
                strong { "This deploy will overwrite a change made outside the console" }
                @if let Some(change) = &drift.change {
                    " (by Pulp user " bdi { (change.by) } " at " (shown(&change.at)) ")"
                }
                "."
            }
        },
    )
}

/// `environment` is frozen by the policy: `freeze` says until when, and by which window.
pub fn freeze_banner(environment: &EnvironmentName, freeze: &str) -> Markup {
    notice(
        "warn",
        None,
        html! {
            span data-freeze data-env=(environment) {
                strong { (environment) " takes no deploy: " }
                (freeze) "."
            }
        },
    )
}
