//! The confirm step of a release promotion (an HX fragment in the page's modal host): per
//! member, current -> target with its package and advisory changes and its warnings; the
//! advisories gained and lost over the set; and a form whose typed field is the release's
//! name, everything else hidden (the environment, each member's target and the version it
//! is expected to serve now, compared and swapped by the POST).

use maud::{html, Markup};

use crate::app::releases::preview::{MemberPreview, ReleasePreview};
use crate::domain::deploy::DeployKind;
use crate::domain::diff::Advisory;
use crate::domain::environment::PromotionCheck;
use crate::domain::repository::VersionNumber;

use crate::adapters::web::views::deploy::preview::plan_summary_of;
use crate::adapters::web::views::deploy::under_way;
use crate::adapters::web::views::deploy::{deploy_reason_field, override_field, reason_field};
use crate::adapters::web::views::layout::notice;

/// The confirm step; `title` says what is promoted ("Promote staging's set to production").
pub fn release_confirm(preview: &ReleasePreview, title: &str) -> Markup {
    let name = preview.release.name.as_str();
    let rollback = preview.kind == DeployKind::Rollback;
    let asks = preview.approvals_needed > 0;
    let freeze = preview.moving().find_map(|m| match m {
        MemberPreview::Moves { preview: Ok(p), .. } => p.freeze.clone(),
        _ => None,
    });
    let promotable = preview.promotable();
    // The members that move, and when their previews were made: the dialog shows their
    // deploys started since, while the promotion runs.
    let moving_ids: Vec<&crate::domain::repository::RepoId> = preview
        .moving()
        .filter_map(|m| match m {
            MemberPreview::Moves { id, .. } => Some(id),
            _ => None,
        })
        .collect();
    let opened = preview.moving().find_map(|m| match m {
        MemberPreview::Moves { preview: Ok(p), .. } => Some(p.made_at),
        _ => None,
    });
    html! {
        div.modal-backdrop {
            div.modal.wide id="deploy-modal" role="dialog" aria-modal="true" aria-labelledby="release-title"
                data-confirm=(name) data-release=(name) data-approvals=(preview.approvals_needed) {
                h2 id="release-title" data-env=(preview.environment) { (title) }
                @if asks {
                    (notice("info", Some("approvals-needed"), html! {
                        span data-approvals-needed=(preview.approvals_needed) {
                            strong { "Needs approval: " }
                            "a promotion to " (preview.environment) " needs " (preview.approvals_needed)
                            " approval" @if preview.approvals_needed != 1 { "s" }
                            " by someone else. Confirming records one request for the whole release; it runs when approved."
                        }
                    }))
                }
                @for member in &preview.members { (member_section(member)) }
                (advisories_over(preview))
                @if promotable {
                    form.confirm-form hx-post={ "/releases/" (name) "/promote" } hx-target="#modal-host" hx-swap="innerHTML" {
                        input type="hidden" name="env" value=(preview.environment);
                        @for member in &preview.members { (hidden_fields(member)) }
                        @if let Some(freeze) = &freeze { (override_field(&preview.environment, freeze)) }
                        @if rollback { (reason_field()) }
                        @else if freeze.is_some() || asks { (deploy_reason_field(freeze.is_some())) }
                        label for="confirm-input" {
                            "Type the release name " code.repo-name { (name) } " to confirm"
                        }
                        input id="confirm-input" name="confirm" type="text" autocomplete="off" spellcheck="false" autocapitalize="off";
                        div.modal-actions {
                            button.ghost type="button" data-modal-cancel { "Cancel" }
                            button.danger type="submit" data-modal-confirm disabled {
                                @if asks { "Request approval" } @else if rollback { "Roll back the set" } @else { "Promote the set" }
                            }
                        }
                    }
                    @if let Some(opened) = opened { (under_way::release_dialog_progress(&moving_ids, &preview.environment, &opened)) }
                } @else {
                    (notice("error", Some("release-blocked"), html! {
                        @if preview.moving().next().is_none() { (preview.environment) " already serves this set: nothing would move." }
                        @else { "The release cannot be promoted: see the members above. Nothing was changed." }
                    }))
                    div.modal-actions { button.ghost type="button" data-modal-cancel { "Close" } }
                }
            }
        }
    }
}

fn member_section(member: &MemberPreview) -> Markup {
    html! {
        section.release-member data-release-member=(member.name()) {
            @match member {
                MemberPreview::Stays { name, serving } => {
                    h3 { (name) } p.muted data-member-stays=(serving.get()) { "Already serves " (serving.label()) ": stays." }
                }
                MemberPreview::Unknown { name } => {
                    h3 { (name) }
                    (notice("error", None, html! { "Pulp has no RPM repository named " (name) ": the release cannot be promoted." }))
                }
                MemberPreview::Moves { name, preview: Err(error), .. } => {
                    h3 { (name) }
                    (notice("error", None, html! { span data-member-refused { (error) } }))
                }
                MemberPreview::Moves { name, preview: Ok(shown), changes, target, .. } => {
                    h3 { (name) ": " (shown.plan.current.map_or_else(|| "nothing".to_owned(), VersionNumber::label)) " \u{2192} " (target.label()) }
                    @if let PromotionCheck::OutOfOrder { skips, .. } = &shown.plan.order {
                        (notice("warn", None, html! {
                            span data-warning="out-of-order" data-skips=(skips) {
                                strong { "Out of order: " } (target.label()) " never went through " (skips) "."
                            }
                        }))
                    }
                    @if let Some(changes) = changes { (plan_summary_of(&shown.plan, changes, Some(name))) }
                }
            }
        }
    }
}

fn hidden_fields(member: &MemberPreview) -> Markup {
    let (name, target, current) = match member {
        MemberPreview::Stays { name, serving } => (name, *serving, Some(*serving)),
        MemberPreview::Moves {
            name,
            target,
            preview: Ok(shown),
            ..
        } => (name, *target, shown.plan.current),
        _ => return html! {},
    };
    html! {
        input type="hidden" name={ "version." (name) } value=(target.get());
        input type="hidden" name={ "current." (name) } value=(current.map_or_else(|| "none".to_owned(), |v| v.get().to_string()));
    }
}

fn advisories_over(preview: &ReleasePreview) -> Markup {
    let list = |advisories: &[Advisory]| {
        let ids: Vec<&str> = advisories.iter().map(|a| a.id.as_str()).collect();
        ids.join(", ")
    };
    html! {
        section.release-advisories {
            h3 { "Advisories over the whole set" }
            p data-advisories-gained=(preview.over_set.advisories_gained.len()) {
                strong { "Gained: " }
                @if preview.over_set.advisories_gained.is_empty() { "none" } @else { (list(&preview.over_set.advisories_gained)) }
            }
            p data-advisories-lost=(preview.over_set.advisories_lost.len()) {
                strong { "Lost: " }
                @if preview.over_set.advisories_lost.is_empty() { "none" } @else { (list(&preview.over_set.advisories_lost)) }
            }
        }
    }
}
