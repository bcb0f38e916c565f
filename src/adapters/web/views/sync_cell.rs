//! The dashboard's synchronization cell: a fixed 172×36 box in every state.

use maud::{html, Markup};

use crate::app::sync::SyncCell;
use crate::domain::{short_reason, RepoId, SyncState, VersionNumber};

/// The cell's content for a repository. The latest version is shown for a finished sync
/// that made no new version. A running sync polls its own cell about once a second.
pub fn sync_cell(id: &RepoId, cell: &SyncCell) -> Markup {
    let (state, has_remote, latest) = (&cell.state, cell.has_remote, cell.latest);
    let url = format!("/repos/{id}/sync");
    html! {
        @match state {
            SyncState::Running(progress) => {
                div.sync-cell data-sync-state="running" hx-get=(url) hx-trigger="every 1s" hx-swap="outerHTML" {
                    span.sync-progress role="status" {
                        span.spinner aria-hidden="true" {}
                        (progress.text())
                    }
                }
            }
            _ => {
                div.sync-cell data-sync-state=(state.as_str()) {
                    @match state {
                        SyncState::Done(version) => {
                            span.sync-done title="Last synchronization finished" {
                                "\u{2713} " (version.or(latest).map_or_else(|| "done".to_owned(), |v| v.label()))
                            }
                        }
                        SyncState::Failed(reason) => {
                            span.sync-failed title=(reason) { "\u{2717} " (short_reason(reason, 16)) }
                        }
                        _ => {}
                    }
                    @if has_remote && matches!(state, SyncState::Idle) {
                        button.ghost.sync-button.wide type="button" hx-post=(url) hx-target="closest .sync-cell" hx-swap="outerHTML"
                            title="Synchronize from the remote" { "\u{21bb} Synchronize" }
                    } @else if has_remote {
                        button.ghost.sync-button type="button" hx-post=(url) hx-target="closest .sync-cell" hx-swap="outerHTML"
                            aria-label="Synchronize again" title="Synchronize again from the remote" { "\u{21bb}" }
                    } @else if matches!(state, SyncState::Idle) {
                        span.muted title="No remote is set on this repository" { "no remote" }
                    }
                }
            }
        }
    }
}

/// A cell that reports an error (the cell keeps its size).
pub fn sync_error_cell(message: &str) -> Markup {
    html! {
        div.sync-cell data-sync-state="failed" {
            span.sync-failed title=(message) role="alert" { "\u{2717} " (short_reason(message, 18)) }
        }
    }
}

/// The dashboard's "Latest" value of a repository. With `oob`, it replaces the one on the
/// page out-of-band (sent with a polled cell, so the column follows a finished sync).
pub fn latest_version(id: &RepoId, latest: Option<VersionNumber>, oob: bool) -> Markup {
    html! {
        span id={ "latest-" (id) } hx-swap-oob=[oob.then_some("true")] {
            (latest.map_or_else(|| "\u{2014}".to_owned(), VersionNumber::label))
        }
    }
}
