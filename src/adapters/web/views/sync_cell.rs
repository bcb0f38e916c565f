//! The dashboard's synchronization cell: a fixed 172×36 box in every state.

use maud::{html, Markup};

use crate::app::sync::SyncCell;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::domain::sync::{short_reason, SyncState};

/// The cell's content for a repository. The latest version is shown for a finished sync
/// that made no new version. A running sync polls its own cell about once a second. With
/// `denied` (why the viewer may not synchronize), the button is disabled, saying why.
pub fn sync_cell(id: &RepoId, cell: &SyncCell, denied: Option<&str>) -> Markup {
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
                        SyncState::Failed(failure) => {
                            span.sync-failed title=(failure.told()) { "\u{2717} " (short_reason(&failure.reason, 16)) }
                        }
                        _ => {}
                    }
                    @if has_remote && matches!(state, SyncState::Idle) {
                        (sync_button(&url, denied, true))
                    } @else if has_remote {
                        (sync_button(&url, denied, false))
                    } @else if matches!(state, SyncState::Idle) {
                        span.muted title="No remote is set on this repository" { "no remote" }
                    }
                }
            }
        }
        (sync_reason(id, state))
    }
}

/// A failed synchronization's whole reason, below the cell (which keeps its size and shows
/// only its start). Always rendered, empty unless the sync failed, and swapped out-of-band
/// with every answer of the cell, so that a later sync's answer clears it.
fn sync_reason(id: &RepoId, state: &SyncState) -> Markup {
    html! {
        p.sync-reason id={ "sync-reason-" (id) } hx-swap-oob="true" data-sync-reason {
            @if let SyncState::Failed(failure) = state {
                "Synchronization failed: " (failure.reason)
            }
        }
    }
}

/// The Synchronize button (`wide`: labelled, in a cell that shows no outcome); disabled with
/// `data-denied="policy"` and the refusal as its title when the viewer is `denied`.
fn sync_button(url: &str, denied: Option<&str>, wide: bool) -> Markup {
    let (label, title) = if wide {
        ("\u{21bb} Synchronize", "Synchronize from the remote")
    } else {
        ("\u{21bb}", "Synchronize again from the remote")
    };
    let allowed = denied.is_none();
    html! {
        button.ghost.sync-button.wide[wide] type="button" hx-post=[allowed.then_some(url)]
            hx-target=[allowed.then_some("closest .sync-cell")] hx-swap=[allowed.then_some("outerHTML")]
            data-denied=[denied.map(|_| "policy")] disabled[!allowed]
            aria-label=[(!wide).then_some("Synchronize again")] title=(denied.unwrap_or(title)) { (label) }
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
