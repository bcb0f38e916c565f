//! The history page: an environment's changes (production's by default), newest first,
//! each with its rollback.

use maud::{html, Markup};

use crate::app::pages::history::HistoryPage;
use crate::domain::deploy::{DeployKind, ProductionChanged};
use crate::domain::history::{EntryOutcome, HistoryEntry, Origin};
use crate::domain::repository::ChangeState;

use super::banners::{drift_banner, freeze_banner};
use super::layout::{back_link, error_page, notice, page};
use super::moment::time;

/// The full history page.
pub fn history_page(data: &HistoryPage) -> Markup {
    page(
        &format!("History of {}", data.repo_name),
        html! {
            div.title-row {
                (back_link())
                h1 { "History of " bdi { (data.repo_name) } }
            }
            p.muted data-env=(data.environment) {
                span.env-name { (data.environment) } ": " (data.distribution.as_deref().unwrap_or("none known"))
                " \u{2014} serves " (data.serving.map_or_else(|| "nothing".to_owned(), |n| n.label()))
                " \u{2014} " a href={ "/repos/" (data.uuid) "/versions" } { "versions" }
            }
            @if let Some(drift) = &data.drift { (drift_banner(drift)) }
            @if let Some(freeze) = &data.frozen { (freeze_banner(&data.environment, freeze)) }
            @if let Some(why) = &data.audit_unreadable {
                (notice("warn", Some("audit-unreadable"), html! { "The console's deploys are not listed: " (why) "." }))
            }
            @if let Some(why) = &data.upstream_unreadable {
                (notice("warn", Some("upstream-unreadable"), html! { "Changes made outside the console are not listed: Pulp's record could not be read: " (why) }))
            }
            div id="banner-area" {}
            @if data.entries.is_empty() {
                p.muted id="history-empty" { "No change of " (data.environment) " is recorded." }
            }
            ol.history {
                @for entry in &data.entries { (history_entry(data, entry)) }
            }
            div id="modal-host" {}
        },
    )
}

fn history_entry(data: &HistoryPage, entry: &HistoryEntry) -> Markup {
    let deploy_id = match &entry.origin {
        Origin::Console { deploy_id, .. } => Some(deploy_id.as_str()),
        Origin::Outside => None,
    };
    html! {
        li.history-entry data-history-entry data-env=(data.environment) data-deploy-id=[deploy_id] data-outside=[deploy_id.is_none().then_some("true")] {
            div.history-head {
                (time(&entry.at))
                " " strong { (label(entry)) } " by " bdi.who { (entry.who) }
            }
            div.history-change {
                @if first_deploy(entry) {
                    span.from data-first-deploy { "first deploy" } " of " span.to { (version(entry.to)) }
                } @else {
                    span.from { (version(entry.from)) } " \u{2192} " span.to { (version(entry.to)) }
                }
                " \u{2014} " span.outcome data-outcome=(outcome_key(entry.outcome)) { (outcome_text(entry.outcome)) }
            }
            @if let Origin::Console { release: Some(release), .. } = &entry.origin {
                div.history-release data-release-promotion=(release.id.as_str()) {
                    "Part of a promotion of release " a href={ "/releases/" (release.name) } { (release.name) }
                    " (its members moved together; roll the set back there)"
                }
            }
            @if let Origin::Console { reason: Some(reason), .. } = &entry.origin {
                div.history-reason { "Reason: " q { (reason) } }
            }
            @if let Some(task) = &entry.task { div.muted { "Pulp task " code { (task) } } }
            @if let Some(id) = deploy_id.filter(|id| data.attested.iter().any(|a| a.as_str() == *id)) {
                div.history-evidence {
                    a data-evidence=(id) href={ "/api/v1/deployments/" (id) "/evidence" } {
                        "Signed evidence"
                    }
                    " (an in-toto attestation in a DSSE envelope; see the book's Evidence for auditors)"
                }
            }
            (rollback_button(data, entry))
        }
    }
}

fn rollback_button(data: &HistoryPage, entry: &HistoryEntry) -> Markup {
    let Some(n) = entry.rollback_target(data.serving.map(|s| s.get())) else {
        return html! {};
    };
    html! {
        @if let Some(blocked) = &data.blocked {
            button.ghost type="button" data-rollback-version=(n) data-denied=(blocked.kind()) disabled title=(blocked.reason()) {
                "Roll back to v" (n)
            }
        } @else if data.existing.contains(&n) {
            button.ghost type="button" data-rollback-version=(n)
                hx-get={ "/repos/" (data.uuid) "/deploy/confirm?version=" (n) "&rollback=1&env=" (data.environment) }
                hx-target="#modal-host" hx-swap="innerHTML" { "Roll back to v" (n) }
        } @else {
            button.ghost type="button" data-rollback-version=(n) disabled
                title="Pulp no longer has this version (retain_repo_versions deleted it)" {
                "Roll back to v" (n) " (deleted by Pulp)"
            }
        }
    }
}

fn label(entry: &HistoryEntry) -> &'static str {
    match &entry.origin {
        Origin::Console {
            kind: DeployKind::Deploy,
            ..
        } => "Deploy",
        Origin::Console {
            kind: DeployKind::Rollback,
            ..
        } => "Rollback",
        Origin::Outside => "Changed outside the console",
    }
}

/// A deploy of the console to a distribution that served nothing before: its audit line
/// names no previous version. (A change made outside the console has no known previous
/// version either, but that is "unknown", not a first deploy.)
fn first_deploy(entry: &HistoryEntry) -> bool {
    entry.from.is_none() && matches!(entry.origin, Origin::Console { .. })
}

fn version(n: Option<u64>) -> String {
    n.map_or_else(|| "unknown".to_owned(), |n| format!("v{n}"))
}

fn outcome_key(outcome: EntryOutcome) -> &'static str {
    match outcome {
        EntryOutcome::Deployed | EntryOutcome::Upstream(ChangeState::Completed) => "deployed",
        EntryOutcome::Failed(_)
        | EntryOutcome::Upstream(ChangeState::Failed | ChangeState::Canceled) => "failed",
        EntryOutcome::Unfinished | EntryOutcome::Upstream(ChangeState::Unfinished) => "unfinished",
    }
}

fn outcome_text(outcome: EntryOutcome) -> &'static str {
    match outcome {
        EntryOutcome::Deployed => "deployed",
        EntryOutcome::Failed(ProductionChanged::No) => "failed; production not changed",
        EntryOutcome::Failed(ProductionChanged::Yes) => "failed; production changed",
        EntryOutcome::Failed(ProductionChanged::Unknown) => {
            "failed; whether production changed is unknown"
        }
        EntryOutcome::Unfinished => {
            "started, no outcome recorded (under way, or the console stopped)"
        }
        EntryOutcome::Upstream(ChangeState::Completed) => "applied by Pulp",
        EntryOutcome::Upstream(ChangeState::Failed) => "failed in Pulp",
        EntryOutcome::Upstream(ChangeState::Canceled) => "canceled in Pulp",
        EntryOutcome::Upstream(ChangeState::Unfinished) => "under way in Pulp",
    }
}

/// The history page when the repository or production could not be read.
pub fn unreadable_page(id: &crate::domain::repository::RepoId, why: &str) -> Markup {
    let message = html! { strong { "Could not load the history. " } (why) };
    error_page(
        "History",
        notice("error", Some("page-error"), message),
        Some(id),
    )
}
