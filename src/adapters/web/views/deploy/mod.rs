//! The deploy confirmation modal and the answers to a deploy (`refused`: those that did not
//! deploy).

pub mod client_checks;
pub mod preview;
pub mod refused;
pub mod requested;
pub mod required_checks;
pub mod under_way;

use std::sync::Arc;

use maud::{html, Markup};

use crate::app::deploy::{DeployStep, Preview, StepError};
use crate::domain::deploy::{DeployKind, DeployPlan, ProductionChanged, Refusal, REASON_MAX_CHARS};
use crate::domain::diff::VersionDiff;
use crate::domain::environment::{EnvironmentName, PromotionCheck};
use crate::domain::repository::TaskHref;
use crate::ports::{AuditError, UpstreamError};

use crate::adapters::web::views::banners::{overwrite_warning, success_banner};
use crate::adapters::web::views::deploy::preview::{confirm_field, plan_summary};
use crate::adapters::web::views::deploy::required_checks::{checks_override_field, checks_panel};
use crate::adapters::web::views::layout::notice;

/// The preview and the type-to-confirm modal. A rollback's asks for a reason; so does an
/// override of the environment's freeze or of its unmet required checks (offered to those
/// who may). The required checks are listed with their states. Where the environment
/// needs approvals, confirming records a request.
pub fn confirm_modal(
    preview: &Preview,
    kind: DeployKind,
    changes: &Result<Arc<VersionDiff>, UpstreamError>,
) -> Markup {
    let plan = &preview.plan;
    let rollback = kind == DeployKind::Rollback;
    let name = plan.confirmation_text();
    let target = plan.target_number();
    let asks = preview.approvals_needed > 0;
    // Not soaked and not theirs to override: the deploy may only be scheduled.
    let soak_until = match &preview.soak {
        Some(Refusal::Soak(soak)) if !soak.may_override => Some(soak.until.clone()),
        _ => None,
    };
    let soak_overridable = matches!(&preview.soak, Some(Refusal::Soak(soak)) if soak.may_override);
    let checks_unmet = preview.checks.as_ref().is_some_and(|c| !c.all_passed());
    // One override (the freeze's, the soak's, the required checks') with its reason.
    let overridable = preview.freeze.is_some() || soak_overridable || checks_unmet;
    html! {
        div.modal-backdrop {
            div.modal id="deploy-modal" role="dialog" aria-modal="true" aria-labelledby="deploy-title"
                data-confirm=(name) data-approvals=(preview.approvals_needed) {
                h2 id="deploy-title" data-env=(plan.environment) {
                    @if rollback { "Roll " (plan.environment) " back to " (plan.target_number().label()) }
                    @else { "Deploy " (target.label()) " to " (plan.environment) }
                }
                @if let PromotionCheck::OutOfOrder { skips, .. } = &plan.order {
                    (notice("warn", Some("out-of-order"), html! {
                        span data-warning="out-of-order" data-skips=(skips) {
                            strong { "Out of order: " }
                            (target.label()) " never went through " (skips) " (the environment before "
                            (plan.environment) "). Deploy it to " (skips) " first, unless skipping it is intended."
                        }
                    }))
                }
                @if let Some(drift) = &preview.overwrites { (overwrite_warning(drift)) }
                @if let Some(pin) = &preview.pin { (super::pins::confirm_notice(pin, rollback)) }
                @if asks { (approvals_notice(plan, preview.approvals_needed)) }
                @if let Some(soak) = &preview.soak { (soak_notice(soak)) }
                @if let Some(checks) = &preview.checks { (checks_panel(&plan.environment, checks)) }
                (plan_summary(plan, changes))
                form.confirm-form hx-post={ "/repos/" (plan.repo.id) "/deploy" } hx-target="#modal-host" hx-swap="innerHTML"
                    hx-disabled-elt="find [data-modal-confirm]" {
                    input type="hidden" name="version" value=(target.get());
                    input type="hidden" name="env" value=(plan.environment);
                    input type="hidden" name="live" value=(plan.current.map_or_else(|| "none".to_owned(), |n| n.get().to_string()));
                    @if let Some(freeze) = &preview.freeze { (override_field(&plan.environment, freeze)) }
                    @else if soak_overridable { (soak_override_field(&plan.environment)) }
                    @else if checks_unmet { (checks_override_field(&plan.environment)) }
                    @if rollback { (reason_field()) }
                    @else if overridable || asks { (deploy_reason_field(overridable)) }
                    @if !rollback { (schedule_field(soak_until.as_ref())) }
                    (confirm_field(name))
                    div.modal-actions {
                        button.ghost type="button" data-modal-cancel { "Cancel" }
                        button.danger type="submit" data-modal-confirm disabled {
                            @if soak_until.is_some() { "Schedule deploy" }
                            @else if asks { "Request approval" } @else { "Confirm deploy" }
                        }
                    }
                }
                (under_way::dialog_progress(&plan.repo.id, &plan.environment, &preview.made_at))
            }
        }
    }
}

fn approvals_notice(plan: &DeployPlan, needed: u32) -> Markup {
    notice(
        "info",
        Some("approvals-needed"),
        html! {
            span data-approvals-needed=(needed) {
                strong { "Needs approval: " }
                "a deploy to " (plan.environment) " needs " (needed) " approval" @if needed != 1 { "s" }
                " by someone else ([policy." (plan.environment) "]). Confirming records a request; "
                "the deploy runs when it is approved."
            }
        },
    )
}

/// The soak the target has not finished: refused (`data-refusal="soak"`), or theirs to
/// override (`data-soak`); `data-soak-until` says when it will have soaked, when known.
fn soak_notice(soak: &Refusal) -> Markup {
    let Refusal::Soak(refused) = soak else {
        return html! {};
    };
    let (environment, until) = (&refused.environment, &refused.until);
    html! {
        @if refused.may_override {
            (notice("warn", Some("soak-override"), html! {
                span data-soak data-env=(environment) data-soak-until=[until] {
                    (soak) " You may deploy through it (you are listed in its override): tick the box and say why."
                }
            }))
        } @else {
            (notice("error", Some("soak"), html! {
                span data-refusal="soak" data-env=(environment) data-soak-until=[until] { (soak) }
            }))
        }
    }
}

/// Offered to those who may deploy before the version soaked: a box to tick, and the reason.
fn soak_override_field(environment: &EnvironmentName) -> Markup {
    html! {
        label.checkbox for="override-input" {
            input id="override-input" name="override" type="checkbox" value="1";
            " Override the soak of " (environment)
        }
    }
}

/// When to run the deploy instead of now: a time with its offset (required, and filled with
/// the moment the version will have soaked, when it may only be scheduled).
fn schedule_field(soak_until: Option<&Option<String>>) -> Markup {
    let required = soak_until.is_some();
    let value = soak_until.cloned().flatten();
    html! {
        label for="at-input" {
            @if required { "Run at (RFC 3339 with its offset; required: it has not soaked yet)" }
            @else { "Run at (optional: leave empty to deploy now; RFC 3339 with its offset, e.g. 2026-12-01T02:00:00+01:00)" }
        }
        input id="at-input" name="at" type="text" autocomplete="off" spellcheck="false"
            placeholder="2026-12-01T02:00:00+01:00" value=[value] required[required];
    }
}

/// Offered to those who may deploy through the freeze: a box to tick, and the reason.
pub(crate) fn override_field(environment: &EnvironmentName, freeze: &str) -> Markup {
    html! {
        (notice("warn", Some("freeze-override"), html! {
            span data-freeze data-env=(environment) {
                strong { (environment) " is " (freeze) ". " }
                "You may deploy through it (you are listed in its override): tick the box and say why."
            }
        }))
        label.checkbox for="override-input" {
            input id="override-input" name="override" type="checkbox" value="1";
            " Override the freeze of " (environment)
        }
    }
}

/// A deploy's reason: required to override a freeze or soak, otherwise kept in the audit log
/// (and shown to the approvers).
pub(crate) fn deploy_reason_field(for_override: bool) -> Markup {
    html! {
        label for="reason-input" {
            @if for_override { "Reason (required to override, kept in the audit log)" }
            @else { "Reason (shown to the approvers, kept in the audit log)" }
        }
        input id="reason-input" name="reason" type="text" maxlength=(REASON_MAX_CHARS) autocomplete="off";
    }
}

/// A rollback's required reason (kept in the audit line).
pub(crate) fn reason_field() -> Markup {
    html! {
        input type="hidden" name="rollback" value="1";
        label for="reason-input" { "Reason for the rollback (required, kept in the audit log)" }
        input id="reason-input" name="reason" type="text" required maxlength=(REASON_MAX_CHARS) autocomplete="off";
    }
}

/// Success, when the repository could not be read again afterwards: the banner alone.
pub fn deployed_without_list(
    plan: &DeployPlan,
    audit: &Result<(), AuditError>,
    why: &impl std::fmt::Display,
) -> Markup {
    html! {
        div id="banner-area" hx-swap-oob="true" {
            (success_banner(plan, audit))
            (notice("warn", None, html! { "The version list could not be refreshed: " (why) }))
        }
    }
}

/// What a failed deploy means for the environment deployed to, in words.
pub fn failure_message(
    environment: &EnvironmentName,
    step: DeployStep,
    error: &StepError,
    changed: ProductionChanged,
    task: Option<&TaskHref>,
    audit: &Result<(), AuditError>,
) -> Markup {
    let step_text = match step {
        DeployStep::Publish => "Creating the publication failed".to_owned(),
        DeployStep::PointDistribution => {
            format!("Pointing the {environment} distribution at the new publication failed")
        }
    };
    let name = capitalized(environment.as_str());
    let (kind, verdict) = match changed {
        ProductionChanged::No => ("error", format!("{name} was NOT changed: it still serves what it served before.")),
        ProductionChanged::Yes => ("warn", format!("{name} WAS changed: it now serves the new version, but the task's end was not confirmed. Check the task in Pulp.")),
        ProductionChanged::Unknown => ("error", format!("Whether {environment} changed is UNKNOWN: Pulp may still carry the change out. Check the {environment} distribution in Pulp (which publication it points at) and the task below before trying again.")),
    };
    html! {
        (notice(kind, Some("deploy-error"), html! {
            p { strong { (verdict) } }
            p { (step_text) ": " (error) }
            @if let Some(task) = task {
                p { "Pulp task: " code data-task { (task) } }
            }
        }))
        @if let Err(audit_error) = audit {
            (notice("error", Some("audit-error"), html! { strong { "The audit line was NOT written: " } (audit_error) }))
        }
    }
}

/// `production` -> `Production`.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A rollback succeeded (from the history page): closes the modal, shows the banner.
pub fn rolled_back(plan: &DeployPlan, audit: &Result<(), AuditError>) -> Markup {
    html! {
        div id="banner-area" hx-swap-oob="true" { (success_banner(plan, audit)) }
    }
}
