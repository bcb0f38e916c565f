//! The dashboard: repositories with their latest version and sync state.

use maud::{html, Markup};

use crate::app::dashboard::Dashboard;

use super::layout::{notice, page};
use super::sync_cell::{latest_version, sync_cell};

pub fn dashboard_page(board: &Dashboard) -> Markup {
    let page_number = board.offset / board.limit;
    let last_page = board.total.saturating_sub(1) / board.limit;
    page(
        "Repositories",
        html! {
            div.title-row {
                h1 { "Repositories" }
                a.ghost href={ "/?page=" (page_number) } id="refresh" { "\u{21bb} Refresh" }
            }
            @if let Some(error) = &board.error { (notice("error", Some("page-error"), html! { (error) })) }
            @if let Some(error) = &board.sync_error { (notice("warn", None, html! { (error) })) }
            div.table-wrap {
                table.repos {
                    thead { tr { th scope="col" { "Repository" } th scope="col" { "Verification" } th.num scope="col" { "Latest" } th scope="col" { "Synchronization" } } }
                    tbody {
                        @for row in &board.rows {
                            tr data-repo=(row.id) {
                                th scope="row" { a href={ "/repos/" (row.id) "/versions" } { bdi { (row.name) } } }
                                td { span.badge data-badge=(row.badge.as_str()) { (row.badge.text()) } }
                                td.num { (latest_version(&row.id, row.sync.latest, false)) }
                                td.sync { (sync_cell(&row.id, &row.sync)) }
                            }
                        }
                        @if board.rows.is_empty() && board.error.is_none() { tr { td colspan="4" .muted { "No repositories." } } }
                    }
                }
            }
            @if board.total > board.limit {
                nav.pager aria-label="Pages" {
                    @if page_number > 0 { a.ghost href={ "/?page=" (page_number - 1) } rel="prev" { "\u{2190} Previous" } }
                    span.muted { "Page " (page_number + 1) " of " (last_page + 1) " (" (board.total) " repositories)" }
                    @if page_number < last_page { a.ghost href={ "/?page=" (page_number + 1) } rel="next" { "Next \u{2192}" } }
                }
            }
        },
    )
}
