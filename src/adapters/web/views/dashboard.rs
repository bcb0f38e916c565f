//! The dashboard: repositories with their latest version and sync state.

use maud::{html, Markup};

use crate::app::pages::dashboard::{Dashboard, DashboardRow, RowProduction};
use crate::domain::environment::{ahead_by, EnvironmentName};
use crate::domain::repository::{RetentionRisk, SYNCS_AHEAD};

use super::banners::freeze_banner;
use super::environments::MISSING_DISTRIBUTION_FIX;
use super::layout::{notice, page};
use super::sync_cell::{latest_version, sync_cell};

pub fn dashboard_page(board: &Dashboard) -> Markup {
    let page_number = board.page;
    let last_page = board.total.saturating_sub(1) / board.limit;
    // A page past the end links back to the last one.
    let previous = page_number.saturating_sub(1).min(last_page);
    page(
        "Repositories",
        html! {
            div.title-row {
                h1 { "Repositories" }
                a.ghost href={ "/?page=" (page_number) } id="refresh" { "\u{21bb} Refresh" }
                a.ghost href="/exposure" id="exposure-link" title="Where a package, an advisory or a CVE is served" { "Exposure" }
            }
            @for env in &board.frozen { (freeze_banner(&env.name, &env.freeze)) }
            @if let Some(error) = &board.error { (notice("error", Some("page-error"), html! { strong { "Could not list repositories. " } (error) })) }
            @if let Some(error) = &board.sync_error { (notice("warn", None, html! { "Could not read synchronization tasks: " (error) })) }
            @if let Some(error) = &board.production_error { (notice("warn", None, html! { "Could not read production: " (error) })) }
            @if !board.releases.is_empty() { (releases_list(board)) }
            // Shown on narrow screens only (CSS): what lies beyond the table's right edge.
            p.scroll-hint data-scroll-hint {
                "The table scrolls sideways: "
                (board.environments.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
                " and synchronization \u{2192}"
            }
            div.table-wrap {
                table.repos {
                    thead { tr {
                        th scope="col" { "Repository" } th scope="col" { "Verification" } th.num scope="col" { "Latest" }
                        @for env in earlier(board) { th.env-col scope="col" { (env) } }
                        th scope="col" { "Production" } th scope="col" { "Synchronization" }
                    } }
                    tbody {
                        @for row in &board.rows {
                            tr data-repo=(row.id) data-release=[row.release.as_ref()] {
                                th scope="row" { a href={ "/repos/" (row.id) "/versions" } { bdi { (row.name) } } " " span.content-type data-content-type=(row.content_type.as_str()) { (row.content_type.label()) } }
                                td { span.badge data-badge=(row.badge.as_str()) { (row.badge.text()) } }
                                td.num { (latest_version(&row.id, row.sync.latest, false)) }
                                @for (i, env) in row.environments.iter().enumerate().take(row.environments.len().saturating_sub(1)) {
                                    (environment_cell(row, env, row.environments.get(i + 1)))
                                }
                                (production_cell(row))
                                td.sync { (sync_cell(&row.id, &row.sync, board.sync_denied.as_deref())) }
                            }
                        }
                        @if board.rows.is_empty() && board.error.is_none() { tr { td colspan=(5 + earlier(board).len()) .muted { "No repositories." } } }
                    }
                }
            }
            @if board.total > board.limit {
                nav.pager aria-label="Pages" {
                    @if page_number > 0 { a.ghost href={ "/?page=" (previous) } rel="prev" { "\u{2190} Previous" } }
                    span.muted { "Page " (page_number.saturating_add(1)) " of " (last_page.saturating_add(1)) " (" (board.total) " repositories)" }
                    @if page_number < last_page { a.ghost href={ "/?page=" (page_number + 1) } rel="next" { "Next \u{2192}" } }
                }
            }
        },
    )
}

/// The releases, each linking to its page, with its members.
fn releases_list(board: &Dashboard) -> Markup {
    html! {
        section.releases aria-labelledby="releases-title" {
            h2 id="releases-title" { "Releases" }
            ul.release-list {
                @for release in &board.releases {
                    li data-release-link=(release.name) {
                        a href={ "/releases/" (release.name) } { (release.name) }
                        span.muted { " \u{2014} " (release.members().join(", ")) }
                    }
                }
            }
        }
    }
}

/// The environments before production (a column each when there are several).
fn earlier(board: &Dashboard) -> &[EnvironmentName] {
    &board.environments[..board.environments.len().saturating_sub(1)]
}

/// What an environment before production serves, drift, how far it is ahead of the next
/// one, and the link to its history.
fn environment_cell(
    row: &DashboardRow,
    env: &RowProduction,
    next: Option<&RowProduction>,
) -> Markup {
    let serving = env.serving.clone().ok().flatten();
    let next_serving = next.and_then(|n| n.serving.clone().ok().flatten());
    let ahead = ahead_by(serving, next_serving);
    html! {
        td.env-cell data-env=(env.environment) data-env-version=(serving.map(|n| n.get().to_string()).unwrap_or_default()) {
            @match &env.serving {
                Ok(Some(n)) => { (n.label()) }
                Ok(None) if env.no_distribution => { span.muted data-no-distribution { "no distribution" } }
                Ok(None) => { span.muted { "nothing" } }
                Err(_) => { span.muted { "unknown" } }
            }
            @if let (Some(lead), Some(next)) = (ahead, next) {
                " " span.badge data-ahead=(lead) title={ (env.environment) " is " (lead) " version" @if lead != 1 { "s" } " ahead of " (next.environment) } {
                    (lead) " ahead of " (next.environment)
                }
            }
            @if env.drift { " " span.badge.warn data-drift title={ (env.environment) " was changed outside the console" } { "changed outside" } }
            @if !env.no_distribution {
                " " a.history-link href={ "/repos/" (row.id) "/history?env=" (env.environment) } { "history" }
            }
        }
    }
}

/// What production serves, "latest not deployed", drift, and the link to the history.
fn production_cell(row: &DashboardRow) -> Markup {
    let serving = row
        .serving()
        .map(|n| n.get().to_string())
        .unwrap_or_default();
    html! {
        td.production data-production-version=(serving) data-env=(row.production().environment) data-env-version=(serving) {
            @match &row.production().serving {
                Ok(Some(n)) => { (n.label()) }
                Ok(None) if row.production().no_distribution => {
                    span.badge.warn data-no-distribution { "distribution missing" }
                    span.cell-note data-no-distribution-fix title=(MISSING_DISTRIBUTION_FIX) {
                        "Create it in Pulp, or name an existing one in the configuration."
                    }
                }
                Ok(None) => { span.muted { "nothing" } }
                Err(_) => { span.muted { "unknown" } }
            }
            @if row.latest_not_deployed() { " " span.badge.warn data-latest-not-deployed { "latest not deployed" } }
            @if row.production().drift { " " span.badge.warn data-drift title="Production was changed outside the console" { "changed outside" } }
            @if let Some(risk) = &row.production().retention { " " (retention_badge(risk)) }
            " " a.history-link href={ "/repos/" (row.id) "/history" } { "history" }
        }
    }
}

/// Pulp will delete a version production needs within the next few syncs.
fn retention_badge(risk: &RetentionRisk) -> Markup {
    let at_risk: Vec<String> = [
        risk.serving.map(|v| format!("{} (live)", v.label())),
        risk.previous
            .map(|v| format!("{} (previous production, the rollback target)", v.label())),
    ]
    .into_iter()
    .flatten()
    .collect();
    let title = format!(
        "retain_repo_versions = {}: Pulp will delete {} within the next {SYNCS_AHEAD} syncs that make a version",
        risk.retain,
        at_risk.join(" and ")
    );
    html! { span.badge.warn data-retention-warning title=(title) { "retention deletes " (at_risk.join(", ")) " soon" } }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(page: u64, limit: u64, total: u64) -> Dashboard {
        Dashboard {
            environments: vec![crate::domain::environment::EnvironmentName::production()],
            rows: Vec::new(),
            total,
            page,
            offset: page.saturating_mul(limit),
            limit,
            error: None,
            sync_error: None,
            production_error: None,
            frozen: Vec::new(),
            sync_denied: None,
            releases: Vec::new(),
        }
    }

    #[test]
    fn the_last_possible_page_number_renders_without_overflow_and_links_back() {
        let html = dashboard_page(&board(u64::MAX, 1, 3)).into_string();
        assert!(html.contains("Page 18446744073709551615 of 3"), "{html}");
        assert!(html.contains(r#"href="/?page=2" rel="prev""#), "{html}");
        assert!(!html.contains(r#"rel="next""#), "{html}");
    }
}
