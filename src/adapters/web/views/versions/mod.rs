//! The versions page and its out-of-band-swappable version list.

use crate::adapters::web::views::deploy::under_way;
use maud::{html, Markup};

use crate::app::pages::versions::VersionsPage;
use crate::app::promotion::policy_gate::Blocked;
use crate::domain::repository::{
    signed, RepoVerification, UnsignedMetadata, VersionNumber, VersionView,
};

use super::banners::{drift_banner, freeze_banner};
use super::environments::{environment_strip, MISSING_DISTRIBUTION_FIX};
use super::layout::{back_link, notice, page};
use super::requests::repository_requests;
use super::schedules::repository_schedules;
pub use super::version_anchor::version_anchor;
use crate::adapters::web::views::compare::links::compare_href;
use crate::adapters::web::views::deploy::client_checks::client_warnings;

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
            @if let Some(drift) = &data.drift { (drift_banner(drift)) }
            @for env in &data.environments {
                @if let Some(freeze) = &env.frozen { (freeze_banner(&env.name, freeze)) }
            }
            @if let Some(error) = &data.error {
                (notice("error", Some("page-error"), html! { strong { "Could not load this repository. " } (error) }))
            }
            @if let Some(verification) = &data.verification {
                (client_warnings(verification))
                (verification_detail(data, verification))
            }
            div id="banner-area" {}
            (super::edges::edge_lines(&data.edges))
            (under_way::page_region(&data.uuid, &data.under_way))
            (repository_requests(&data.requests))
            (repository_schedules(&data.schedules))
            (super::pins::repository_pins(data))
            (version_list(data, false))
            (super::super::insights::section::section_placeholder(data.uuid.as_str()))
            div id="modal-host" {}
        },
    )
}

/// The conditions the badge is computed from, each with its state and, when it does not
/// hold, its fix; then where the policy allows unsigned metadata, when not everywhere.
fn verification_detail(data: &VersionsPage, v: &RepoVerification) -> Markup {
    let policy = data.unsigned_metadata;
    let badge = v.badge(policy);
    let allowed_in: Vec<&str> = data
        .environments
        .iter()
        .filter(|e| e.unsigned_metadata == UnsignedMetadata::Allow)
        .map(|e| e.name.as_str())
        .collect();
    let mixed = !allowed_in.is_empty() && allowed_in.len() < data.environments.len();
    html! {
        section.panel id="verification" aria-label="Verification detail" {
            h2 { "Verification " span.badge data-badge=(badge.as_str()) { (badge.text()) } }
            dl.checks {
                @for condition in v.conditions(policy) {
                    div.check data-check=(condition.name) data-ok=(condition.ok)
                        data-metadata=[(condition.name == "metadata").then(|| v.metadata(policy).as_str())] {
                        dt { (condition.name) }
                        dd {
                            (condition.state)
                            @if let Some(fix) = &condition.fix {
                                br; span.fix data-fix=(condition.name) { "Fix: " (fix) "." }
                            }
                        }
                    }
                }
            }
            @if mixed && !v.metadata(policy).holds() && v.metadata(UnsignedMetadata::Allow).holds() {
                p data-unsigned-allowed-in=(allowed_in.join(",")) {
                    "Unsigned metadata is allowed in " (allowed_in.join(", "))
                    ": deploys there pass verification."
                }
            }
        }
    }
}

/// The list of versions: production's version, one screen of the table between two pagers
/// (the one above only when there are several screens). With `oob`, it replaces the page's
/// list out-of-band (after a deploy).
pub fn version_list(data: &VersionsPage, oob: bool) -> Markup {
    html! {
        div id="version-list" hx-swap-oob=[oob.then_some("true")] {
            @if let Some(why) = &data.deployed_unknown {
                (notice("warn", None, html! { "The version in production is unknown: " (why) }))
            }
            @if let Some(production) = data.environments.last().filter(|p| p.no_distribution) {
                (notice("warn", Some("distribution-missing"), html! {
                    strong { (production.name) " has no distribution for this repository" }
                    ": nothing can be deployed there. " (MISSING_DISTRIBUTION_FIX)
                }))
            }
            @if data.error.is_none() {
                (production_line(data))
                @if data.environments.len() > 1 { (environment_strip(data)) }
                @if has_screens(data) { (pager(data, "above the list")) }
                @if data.screen.is_past(data.total) {
                    (notice("warn", Some("past-end"), html! {
                        "There is no screen " (data.screen.index().saturating_add(1)) " of versions: this repository has "
                        (data.total) " versions on " (data.screen.last_index(data.total) + 1) " screens."
                    }))
                } @else {
                    (version_table(data))
                }
                (pager(data, "below the list"))
            }
        }
    }
}

/// Which version production serves, with a way to its row wherever it is.
fn production_line(data: &VersionsPage) -> Markup {
    let serving = data
        .deployed
        .map(|n| n.get().to_string())
        .unwrap_or_default();
    let on_screen = |n: VersionNumber| data.versions.iter().any(|v| v.number == Some(n));
    html! {
        p.production-line id="production-version" data-production-version=(serving) {
            @match data.deployed {
                Some(n) => {
                    "Production serves " strong { (n.label()) } " \u{2014} "
                    @if on_screen(n) {
                        a href={ "#" (version_anchor(n)) } { "its row below" }
                    } @else {
                        a href={ "/repos/" (data.uuid) "/versions?at=" (n.get()) } data-production-screen { "show its screen" }
                    }
                }
                None if data.deployed_unknown.is_none() => { span.muted { "Production serves no version of this repository." } }
                None => {}
            }
        }
    }
}

/// Whether the versions take more than one screen (or this one is not the first).
fn has_screens(data: &VersionsPage) -> bool {
    data.screen.last_index(data.total) > 0 || data.screen.index() > 0
}

/// Screens of versions: newer, where this one is, older; the number of versions when they
/// fit on one screen. `place` tells the two pagers apart by name (a landmark each).
fn pager(data: &VersionsPage, place: &str) -> Markup {
    let index = data.screen.index();
    let last = data.screen.last_index(data.total);
    let first_shown = data.screen.offset().saturating_add(1);
    let last_shown = data
        .screen
        .offset()
        .saturating_add(data.versions.len() as u64);
    let href = |i: u64| format!("/repos/{}/versions?page={i}", data.uuid);
    html! {
        @if has_screens(data) {
            nav.pager aria-label={ "Screens of versions, " (place) } data-screen=(index) data-screens=(last + 1) {
                @if index > 0 { a.ghost href=(href(index.min(last + 1) - 1)) rel="prev" { "\u{2190} Newer" } }
                span.muted {
                    @if data.versions.is_empty() { "Screen " (index.saturating_add(1)) }
                    @else { "Versions " (first_shown) "\u{2013}" (last_shown) " of " (data.total) " \u{00B7} screen " (index + 1) " of " (last + 1) }
                }
                @if index < last { a.ghost href=(href(index + 1)) rel="next" { "Older \u{2192}" } }
            }
        } @else {
            p.muted.pager-total { (data.total) " versions" }
        }
    }
}

fn version_table(data: &VersionsPage) -> Markup {
    html! {
        div.table-wrap {
            table.versions {
                thead { tr {
                    th scope="col" { "Version" } th scope="col" { "Created (UTC)" } th.num scope="col" { "Packages" }
                    th.num scope="col" { "Change" } th scope="col" { "Verification" }
                    th scope="col" { @if multi(data) { "Serving" } @else { "Production" } }
                    th scope="col" { span.sr-only { "Action" } }
                } }
                tbody {
                    @for v in &data.versions {
                        (version_row(data, v))
                    }
                    @if data.versions.is_empty() { tr { td colspan="7" .muted { "No versions." } } }
                }
            }
        }
    }
}

/// One row, its anchor `#v<n>`.
fn version_row(data: &VersionsPage, v: &VersionView) -> Markup {
    let number = v.number.map(|n| n.get().to_string()).unwrap_or_default();
    let change_class = match v.change {
        c if c > 0 => "change plus",
        c if c < 0 => "change minus",
        _ => "change zero",
    };
    let serving_envs: Vec<&str> = data
        .environments
        .iter()
        .filter(|e| e.serving.is_some() && e.serving == v.number)
        .map(|e| e.name.as_str())
        .collect();
    html! {
        tr id=[v.number.map(version_anchor)] data-version=(number) data-deployed=(v.deployed)
            data-serving-envs=(serving_envs.join(" ")) class=[v.deployed.then_some("is-deployed")] {
            th scope="row" { (v.label()) }
            td { time datetime=(v.created.to_rfc3339()) { (v.created.format("%Y-%m-%d %H:%M")) } }
            td.num { (v.package_count) }
            td.num { (change_cell(data, v, change_class)) }
            td { span.badge data-badge=(v.badge.as_str()) { (v.badge.text()) } }
            td {
                @if v.deployed { span.live-badge data-live="true" { "\u{25CF} Live" } }
                @if multi(data) {
                    @for env in serving_envs.iter().filter(|e| Some(**e) != production_name(data)) {
                        " " span.env-badge data-env-badge=(env) { (env) }
                    }
                }
                (check_badges(data, v))
            }
            @let next = next_environment(data, v, &serving_envs);
            td.action {
                @if multi(data) { (earlier_deploy_buttons(data, &number, &serving_envs, next)) }
                (deploy_button(data, v, &number, next))
            }
        }
    }
}

/// The latest report of each check of this version, per environment: passed or failed,
/// linked to its run when the pipeline gave one.
fn check_badges(data: &VersionsPage, v: &VersionView) -> Markup {
    let of_version = data
        .checks
        .iter()
        .filter(|r| v.number.is_some_and(|n| n.get() == r.key.version));
    html! {
        @for report in of_version {
            @let state = report.state().as_str();
            @let mark = if report.passed { "\u{2713}" } else { "\u{2717}" };
            @let title = format!("{} {state} on {} (reported by {})", report.key.name, report.key.environment, report.reporter);
            " "
            @match &report.url {
                Some(url) => {
                    a.check-badge class={ "check-" (state) } href=(url.as_str()) rel="noopener noreferrer"
                        data-check=(report.key.name) data-check-state=(state) data-check-env=(report.key.environment) title=(title) {
                        (mark) " " (report.key.name) "@" (report.key.environment)
                    }
                }
                None => {
                    span.check-badge class={ "check-" (state) }
                        data-check=(report.key.name) data-check-state=(state) data-check-env=(report.key.environment) title=(title) {
                        (mark) " " (report.key.name) "@" (report.key.environment)
                    }
                }
            }
        }
    }
}

/// The signed change, linked to the changes against the previous version when there is one.
fn change_cell(data: &VersionsPage, v: &VersionView, class: &str) -> Markup {
    let title = format!("+{} added, \u{2212}{} removed", v.added, v.removed);
    match (v.number, v.previous) {
        (Some(n), Some(p)) => html! {
            a class=(class) href=(compare_href(&data.uuid, n, p, 1)) data-changes-against=(p.get())
                title={ (title) ". Changes against the previous version, " (p.label()) } { (signed(v.change)) }
        },
        _ => html! { span class=(class) title=(title) { (signed(v.change)) } },
    }
}

/// More than one environment is configured.
fn multi(data: &VersionsPage) -> bool {
    data.environments.len() > 1
}

/// The last environment's name (production).
fn production_name(data: &VersionsPage) -> Option<&str> {
    data.environments.last().map(|e| e.name.as_str())
}

/// With several environments: a deploy button for each one before production (the last
/// keeps the plain Deploy button), disabled where that environment serves this version, has
/// no distribution, or verification does not pass under its policy; the one to `next` (the
/// version's next environment) strong, the others quiet.
fn earlier_deploy_buttons(
    data: &VersionsPage,
    number: &str,
    serving_envs: &[&str],
    next: Option<&str>,
) -> Markup {
    let earlier = &data.environments[..data.environments.len().saturating_sub(1)];
    html! {
        @for env in earlier {
            @let blocked = data.blocked(&env.name);
            @let why_not = if let Some(blocked) = &blocked {
                Some(blocked.reason().to_owned())
            } else if serving_envs.contains(&env.name.as_str()) {
                Some(format!("{} serves this version", env.name))
            } else if env.no_distribution {
                Some(format!("{} has no distribution for this repository", env.name))
            } else {
                env.not_verified.as_deref().map(capitalized)
            };
            @match why_not {
                None => {
                    button type="button" class={ "env-deploy " (strength(next, env.name.as_str())) } data-deploy-to-version=(number) data-deploy-env=(env.name)
                        hx-get={ "/repos/" (data.uuid) "/deploy/confirm?version=" (number) "&env=" (env.name) }
                        hx-target="#modal-host" hx-swap="innerHTML" { "To " (env.name) }
                }
                Some(why) => {
                    button.ghost.env-deploy type="button" data-deploy-to-version=(number) data-deploy-env=(env.name)
                        data-denied=[blocked.as_ref().map(Blocked::kind)] disabled title=(why) { "To " (env.name) }
                }
            }
            " "
        }
    }
}

/// The environment this version goes to next: the one after the last (in path order) that
/// serves it, or the first when none does; `None` past production, or when going there would
/// not move it forward (it serves a newer version: that is a rollback). Its button alone is
/// strong, every other one of the row is secondary.
fn next_environment<'a>(
    data: &'a VersionsPage,
    v: &VersionView,
    serving_envs: &[&str],
) -> Option<&'a str> {
    let last_serving = data
        .environments
        .iter()
        .rposition(|e| serving_envs.contains(&e.name.as_str()));
    let next = &data.environments[last_serving.map_or(0, |i| i + 1)..];
    let next = next.first()?;
    let forward = match (next.serving, v.number) {
        (Some(serving), Some(number)) => number > serving,
        (None, _) => true,
        (Some(_), None) => false,
    };
    forward.then_some(next.name.as_str())
}

/// The class of a deploy button to `environment`: strong only where it is the next one.
fn strength(next: Option<&str>, environment: &str) -> &'static str {
    if next == Some(environment) {
        "primary"
    } else {
        "ghost"
    }
}

fn deploy_button(data: &VersionsPage, v: &VersionView, number: &str, next: Option<&str>) -> Markup {
    let blocked = data
        .environments
        .last()
        .and_then(|production| data.blocked(&production.name));
    let not_verified = data
        .environments
        .last()
        .and_then(|production| production.not_verified.as_deref());
    let missing = data.environments.last().is_some_and(|p| p.no_distribution);
    let why_not = if let Some(blocked) = &blocked {
        blocked.reason().to_owned()
    } else if missing {
        "Distribution missing: create it in Pulp, or name an existing one in the configuration"
            .to_owned()
    } else if v.deployed {
        "This version is live in production".to_owned()
    } else if let Some(why) = not_verified {
        capitalized(why)
    } else {
        String::new()
    };
    let label = match production_name(data) {
        Some(name) if multi(data) => format!("To {name}"),
        _ => "Deploy".to_owned(),
    };
    html! {
        @if !v.deployed && v.number.is_some() && not_verified.is_none() && blocked.is_none() && !missing {
            button type="button" class=(strength(next, production_name(data).unwrap_or_default())) data-deploy-version=(number)
                hx-get={ "/repos/" (data.uuid) "/deploy/confirm?version=" (number) }
                hx-target="#modal-host" hx-swap="innerHTML" { (label) }
        } @else {
            button.ghost type="button" data-deploy-version=(number) data-denied=[blocked.as_ref().map(Blocked::kind)]
                disabled title=(why_not) { (label) }
        }
    }
}

/// `text` with its first letter upper-cased (a refusal's reason as a button's title).
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Success: empties the modal host (closing it), and replaces the list and the banner out-of-band.
pub fn deployed(
    plan: &crate::domain::deploy::DeployPlan,
    page: &VersionsPage,
    audit: &Result<(), crate::ports::AuditError>,
) -> Markup {
    html! {
        (version_list(page, true))
        div id="banner-area" hx-swap-oob="true" { (super::banners::success_banner(plan, audit)) }
    }
}
