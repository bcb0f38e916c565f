//! The release page: a row per member (`data-release-member`) with one cell per environment
//! (`data-env`, `data-env-version`: the version it serves), the members that disagree with
//! the release's last promotion (`data-release-drift`, with what differs), the set each
//! environment would receive from the one before (a button opening its confirm step), and
//! the release's promotions, newest first, each finished one with a rollback of the set.

use std::collections::BTreeMap;

use maud::{html, Markup};

use crate::app::promotion::policy_gate::Blocked;
use crate::app::releases::view::{EnvironmentColumn, MemberRow, ReleaseView};
use crate::domain::deploy::DeployKind;
use crate::domain::environment::EnvironmentName;
use crate::domain::release::{MemberDrift, ProposedSet, ReleaseRecord};
use crate::domain::repository::VersionNumber;

use crate::adapters::web::views::layout::{back_link, notice, page};
use crate::adapters::web::views::moment::time;
use crate::adapters::web::views::releases::outcome::member_list;

/// The whole page; `blocked`: why the viewer may not promote to an environment.
pub fn release_page(view: &ReleaseView, blocked: &BTreeMap<EnvironmentName, Blocked>) -> Markup {
    let name = &view.release.name;
    html! {
        (page(&format!("Release {name}"), html! {
            div.title-row {
                (back_link())
                h1 { "Release " (name) }
            }
            p.muted {
                "Members, moved in this order: " (view.release.members().join(", "))
                ". Every member goes through " (path_words(view)) "; a promotion moves all of them or none."
            }
            @for row in view.members.iter().filter(|r| r.member.is_none()) {
                (notice("error", None, html! {
                    span data-unknown-member=(row.name) {
                        strong { (row.name) } " is not in Pulp: Pulp has no RPM repository of that name, so the release cannot be promoted. "
                        "Create it in Pulp, or remove it from [releases." (name) "] in the console's configuration."
                    }
                }))
            }
            @if let Err(error) = &view.promotions {
                (notice("warn", Some("audit-unreadable"), html! { "The release's promotions are not listed: " (error) "." }))
            }
            (members_table(view))
            h2 { "Promote" }
            ul.release-sets {
                @for column in &view.environments { (set_item(view, column, blocked.get(&column.name))) }
            }
            h2 { "Promotions" }
            @match &view.promotions {
                Ok(records) if records.is_empty() => { p.muted id="promotions-empty" { "No promotion of " (name) " is recorded." } }
                Ok(records) => {
                    ol.release-promotions {
                        @for record in records { (promotion(view, record, blocked.get(&record.environment))) }
                    }
                }
                Err(_) => {}
            }
            div id="modal-host" {}
        }))
    }
}

/// Every member in every environment (the version it serves) and its drift: the release
/// page's table, and each release's on the list of releases.
pub fn members_table(view: &ReleaseView) -> Markup {
    let name = &view.release.name;
    html! {
        div.table-wrap {
            table.release data-release=(name) {
                caption.sr-only { "What each environment serves of each member of " (name) }
                thead { tr {
                    th scope="col" { "Member" }
                    @for column in &view.environments { th scope="col" { (column.name) } }
                    th scope="col" { "Drift" }
                } }
                tbody {
                    @for row in &view.members { (member_row(view, row)) }
                }
            }
        }
    }
}

fn path_words(view: &ReleaseView) -> String {
    let names: Vec<String> = view
        .environments
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    names.join(" \u{2192} ")
}

fn member_row(view: &ReleaseView, row: &MemberRow) -> Markup {
    let drift: Vec<(&EnvironmentName, &MemberDrift)> = view
        .environments
        .iter()
        .flat_map(|c| {
            c.drift
                .iter()
                .filter(|d| d.repository == row.name)
                .map(move |d| (&c.name, d))
        })
        .collect();
    let unread = row.environments.as_ref().err();
    html! {
        tr data-release-member=(row.name) data-release-drift=[(!drift.is_empty()).then_some("true")] {
            th scope="row" {
                @match &row.member {
                    Some(member) => { a href={ "/repos/" (member.repo.id) "/versions" } { bdi { (row.name) } } }
                    None => { bdi { (row.name) } " " span.badge data-badge="unknown" { "not in Pulp" } }
                }
            }
            @for column in &view.environments {
                @let serving = row.serving(&column.name);
                td data-env=(column.name) data-env-version=[serving.map(VersionNumber::get)] {
                    @if unread.is_some() || row.member.is_none() { span.muted { "unknown" } }
                    @else { (serving.map_or_else(|| "nothing".to_owned(), |v| v.label())) }
                }
            }
            td.drift {
                @if let Some(error) = unread { span.muted { "Not read: " (error) } }
                @for (environment, d) in &drift {
                    div data-drift-env=(environment) { strong { (environment) ": " } (d.describe()) }
                }
            }
        }
    }
}

fn set_item(view: &ReleaseView, column: &EnvironmentColumn, blocked: Option<&Blocked>) -> Markup {
    let name = &view.release.name;
    let from = column.source.as_ref().map_or_else(
        || "the newest versions".to_owned(),
        |s| format!("{s}'s set"),
    );
    let title = format!("Promote {from} to {}", column.name);
    let url = format!("/releases/{name}/promote/confirm?env={}", column.name);
    html! {
        li data-release-set=(column.name) {
            @match &column.proposed {
                ProposedSet::Incomplete { missing } => {
                    strong { (title) } ": "
                    span.muted data-set-missing=(missing.join(",")) {
                        (column.source.as_ref().map_or("Pulp", |s| s.as_str())) " serves nothing of " (missing.join(", "))
                    }
                }
                ProposedSet::Ready { versions, moves } => {
                    @if let Some(blocked) = blocked {
                        button.primary type="button" data-promote-env=(column.name) data-denied=(blocked.kind()) disabled title=(blocked.reason()) { (title) }
                    } @else if !moves {
                        button.primary type="button" data-promote-env=(column.name) disabled title={ (column.name) " already serves this set" } { (title) }
                    } @else {
                        button.primary type="button" data-promote-env=(column.name) hx-get=(url) hx-target="#modal-host" hx-swap="innerHTML" { (title) }
                    }
                    " "
                    span.muted { (set_words(versions)) }
                }
            }
        }
    }
}

fn set_words(versions: &BTreeMap<String, VersionNumber>) -> String {
    let parts: Vec<String> = versions
        .iter()
        .map(|(m, v)| format!("{m} {}", v.label()))
        .collect();
    parts.join(", ")
}

fn promotion(view: &ReleaseView, record: &ReleaseRecord, blocked: Option<&Blocked>) -> Markup {
    let kind = match record.kind {
        DeployKind::Deploy => "Promotion",
        DeployKind::Rollback => "Rollback",
    };
    let newest_here = view
        .column(&record.environment)
        .and_then(|c| c.last.as_ref())
        .is_some_and(|last| last.release.id == record.release.id);
    html! {
        li.release-promotion data-release-promotion=(record.release.id.as_str()) data-env=(record.environment) data-served-set=(record.served.as_str()) {
            div.history-head {
                (time(&record.timestamp)) " " strong { (kind) " to " (record.environment) } " by " bdi.who { (record.operator) }
                " \u{2014} " (record.served.sentence(record.environment.as_str()))
            }
            @if let Some(reason) = &record.reason { div.history-reason { "Reason: " q { (reason) } } }
            (member_list(record))
            @if newest_here && record.replaced_set().is_some() { (rollback_button(view, record, blocked)) }
        }
    }
}

fn rollback_button(
    view: &ReleaseView,
    record: &ReleaseRecord,
    blocked: Option<&Blocked>,
) -> Markup {
    let url = format!(
        "/releases/{}/promote/confirm?env={}&rollback={}",
        view.release.name,
        record.environment,
        record.release.id.as_str()
    );
    html! {
        @if let Some(blocked) = blocked {
            button.ghost type="button" data-release-rollback=(record.release.id.as_str()) data-denied=(blocked.kind()) disabled title=(blocked.reason()) { "Roll back this set" }
        } @else {
            button.ghost type="button" data-release-rollback=(record.release.id.as_str()) hx-get=(url) hx-target="#modal-host" hx-swap="innerHTML" { "Roll back this set" }
        }
    }
}
