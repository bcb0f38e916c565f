//! The versions page and its out-of-band-swappable version list.

use maud::{html, Markup};

use crate::app::versions::VersionsPage;
use crate::domain::{signed, RepoVerification, VersionNumber, VersionView};

use super::client_checks::client_warnings;
use super::compare::compare_href;
use super::layout::{back_link, notice, page};

/// The full versions page.
pub fn versions_page(data: &VersionsPage) -> Markup {
    page(
        &data.repo_name,
        html! {
            div.title-row {
                (back_link())
                h1 { bdi { (data.repo_name) } }
            }
            p.muted { "Repository " code { (data.uuid) } " \u{2014} " a href={ "/repos/" (data.uuid) "/history" } data-history-link { "production history" } }
            @if let Some(drift) = &data.drift { (super::history::drift_banner(drift)) }
            @if let Some(error) = &data.error {
                (notice("error", Some("page-error"), html! { strong { "Could not load this repository. " } (error) }))
            }
            @if let Some(verification) = &data.verification {
                (client_warnings(verification))
                (verification_detail(verification))
            }
            div id="banner-area" {}
            (version_list(data, false))
            div id="modal-host" {}
        },
    )
}

/// The verification settings the badge is computed from.
fn verification_detail(v: &RepoVerification) -> Markup {
    let badge = v.badge();
    html! {
        section.panel id="verification" aria-label="Verification detail" {
            h2 { "Verification " span.badge data-badge=(badge.as_str()) { (badge.text()) } }
            dl.checks {
                @for (name, ok) in v.checks() {
                    div.check data-check=(name) data-ok=(ok) {
                        dt { (name) }
                        dd { (setting_text(name, v, ok)) }
                    }
                }
            }
        }
    }
}

fn setting_text(name: &str, v: &RepoVerification, ok: bool) -> String {
    if name == "checksum" {
        return match &v.checksum {
            Some(c) if ok => c.as_str().to_owned(),
            Some(c) => format!("{} (weak)", c.as_str()),
            None => "not set".to_owned(),
        };
    }
    if ok {
        "on".to_owned()
    } else {
        "off".to_owned()
    }
}

/// The list of versions. With `oob`, it replaces the page's list out-of-band (after a deploy).
pub fn version_list(data: &VersionsPage, oob: bool) -> Markup {
    html! {
        div id="version-list" hx-swap-oob=[oob.then_some("true")] {
            @if let Some(why) = &data.deployed_unknown {
                (notice("warn", None, html! { "The version in production is unknown: " (why) }))
            }
            @if data.error.is_none() {
                (version_table(data))
            }
        }
    }
}

fn version_table(data: &VersionsPage) -> Markup {
    html! {
        div.table-wrap {
            table.versions {
                thead { tr {
                    th scope="col" { "Version" } th scope="col" { "Created (UTC)" } th.num scope="col" { "Packages" }
                    th.num scope="col" { "Change" } th scope="col" { "Verification" } th scope="col" { "Production" } th scope="col" { span.sr-only { "Action" } }
                } }
                tbody {
                    @for (i, v) in data.versions.iter().enumerate() {
                        (version_row(data, v, data.versions.get(i + 1).and_then(|p| p.number)))
                    }
                    @if data.versions.is_empty() { tr { td colspan="7" .muted { "No versions." } } }
                }
            }
        }
    }
}

/// One row; `previous` is the version before it (newest first, so the next in the list).
fn version_row(data: &VersionsPage, v: &VersionView, previous: Option<VersionNumber>) -> Markup {
    let number = v.number.map(|n| n.get().to_string()).unwrap_or_default();
    let change_class = match v.change {
        c if c > 0 => "change plus",
        c if c < 0 => "change minus",
        _ => "change zero",
    };
    html! {
        tr data-version=(number) data-deployed=(v.deployed) class=[v.deployed.then_some("is-deployed")] {
            th scope="row" { (v.label()) }
            td { time datetime=(v.created.to_rfc3339()) { (v.created.format("%Y-%m-%d %H:%M")) } }
            td.num { (v.package_count) }
            td.num { (change_cell(data, v, previous, change_class)) }
            td { span.badge data-badge=(v.badge.as_str()) { (v.badge.text()) } }
            td { @if v.deployed { span.live-badge data-live="true" { "\u{25CF} Live" } } }
            td.action { (deploy_button(data, v, &number)) }
        }
    }
}

/// The signed change, linked to the changes against the previous version when there is one.
fn change_cell(
    data: &VersionsPage,
    v: &VersionView,
    previous: Option<VersionNumber>,
    class: &str,
) -> Markup {
    let title = format!("+{} added, \u{2212}{} removed", v.added, v.removed);
    match (v.number, previous) {
        (Some(n), Some(p)) => html! {
            a class=(class) href=(compare_href(&data.uuid, n, p, 1)) data-changes-against=(p.get())
                title={ (title) ". Changes against the previous version, " (p.label()) } { (signed(v.change)) }
        },
        _ => html! { span class=(class) title=(title) { (signed(v.change)) } },
    }
}

fn deploy_button(data: &VersionsPage, v: &VersionView, number: &str) -> Markup {
    let why_not = if v.deployed {
        "This version is live in production"
    } else if !v.badge.allows_deploy() {
        "Verification does not pass: deploy is not allowed"
    } else {
        ""
    };
    html! {
        @if v.can_deploy() {
            button.primary type="button" data-deploy-version=(number)
                hx-get={ "/repos/" (data.uuid) "/deploy/confirm?version=" (number) }
                hx-target="#modal-host" hx-swap="innerHTML" { "Deploy" }
        } @else {
            button.primary type="button" data-deploy-version=(number) disabled title=(why_not) { "Deploy" }
        }
    }
}
