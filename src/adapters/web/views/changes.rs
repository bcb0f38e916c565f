//! What a version changes against another: advisories (with the dropped-security
//! regression) and packages, as a summary (the deploy modal) or in full (the compare page).

use maud::{html, Markup};

use crate::domain::diff::{
    count_by_type, count_kinds, Advisory, AdvisoryDiff, AdvisoryType, ChangeKind, Evr,
    PackageChange, VersionDiff,
};

use super::layout::notice;

/// Who drops what, in the deploy modal's regression notice.
const DEPLOY_DROPS: &str = "this deploy drops security advisories production has now";

/// Package changes shown in the deploy modal before "see all".
pub const SUMMARY_LIMIT: usize = 50;

/// Advisories first, then the first `limit` package changes with counts per kind; `full`
/// is the address of the complete list, linked when some changes are not shown.
pub fn diff_summary(diff: &VersionDiff, limit: usize, full: Option<&str>) -> Markup {
    diff_summary_of(diff, limit, full, None)
}

/// [`diff_summary`] of one of several repositories shown together (a release's confirm
/// step): its landmarks are named after `subject`, so that each is told apart.
pub fn diff_summary_of(
    diff: &VersionDiff,
    limit: usize,
    full: Option<&str>,
    subject: Option<&str>,
) -> Markup {
    let shown = &diff.packages[..diff.packages.len().min(limit)];
    let named = |what: &str| match subject {
        Some(subject) => format!("{what} of {subject}"),
        None => what.to_owned(),
    };
    html! {
        section.changes aria-label=(named("What this deploy changes")) {
            @if diff.is_empty() {
                p.muted data-no-changes { "No package or advisory changes." }
            }
            (advisory_section(&diff.advisories, DEPLOY_DROPS))
            @if !diff.packages.is_empty() {
                (kind_counts(&diff.packages))
                // The list scrolls in the modal and on a request's page: a keyboard user must
                // be able to reach it (Tab) and scroll it (arrow keys), and hear what it is.
                div.package-list tabindex="0" role="region" aria-label=(named("Package changes")) data-package-changes {
                    ul.package-changes { @for change in shown { (package_change(change)) } }
                }
            }
            @if shown.len() < diff.packages.len() {
                p { "Showing " (shown.len()) " of " (diff.packages.len()) " package changes. "
                    @if let Some(full) = full { a href=(full) data-changes-link { "See every change" } } }
            } @else if let (Some(full), false) = (full, diff.is_empty()) {
                p { a href=(full) data-changes-link { "Open as a page" } }
            }
        }
    }
}

/// Counts per kind: "2 added · 1 removed · 3 upgraded · 0 downgraded", then "· 4 older
/// builds" when some names changed only below their newest build.
pub fn kind_counts(changes: &[PackageChange]) -> Markup {
    let counts = count_kinds(changes);
    let shown = counts
        .into_iter()
        .filter(|(kind, n)| kind.moves_newest() || *n > 0);
    html! {
        p.kind-counts data-kind-counts {
            @for (i, (kind, n)) in shown.enumerate() {
                @if i > 0 { " \u{b7} " }
                span class={ "kind " (kind.as_str()) } data-count=(kind.as_str()) { (n) " " (kind.label()) }
            }
        }
    }
}

/// One package change: `data-change`, `data-package`, and the EVRs in its text.
pub fn package_change(change: &PackageChange) -> Markup {
    let evrs = versions;
    html! {
        li data-change=(change.kind.as_str()) data-package=(change.name) data-security=[change.security.then_some("true")] {
            span class={ "kind " (change.kind.as_str()) } { (change.kind.label()) }
            " " bdi.pkg { (change.name) } span.arch { "." (change.arch) } " "
            @match change.kind {
                ChangeKind::Added => span.evr { (evrs(&change.new)) },
                ChangeKind::Removed => span.evr { (evrs(&change.old)) },
                ChangeKind::OlderBuilds => span.evr title="The newest build is the same on both sides: dnf installs the same build." {
                    @if !change.old.is_empty() { "dropped " (evrs(&change.old)) }
                    @if !change.old.is_empty() && !change.new.is_empty() { "; " }
                    @if !change.new.is_empty() { "added " (evrs(&change.new)) }
                    " (newest unchanged)"
                },
                _ => span.evr {
                    (side(&change.old, change.kept.as_ref(), change.old_newest()))
                    " \u{2192} "
                    (side(&change.new, change.kept.as_ref(), change.new_newest()))
                },
            }
            @if change.security { " " span.tag.security { "security" } }
        }
    }
}

/// One side of an upgrade or a downgrade: its own builds, or, when the build both versions
/// keep is that side's newest, that build marked as kept.
fn side(own: &[Evr], kept: Option<&Evr>, newest: Option<&Evr>) -> Markup {
    let kept_is_newest = kept.is_some() && kept == newest;
    html! {
        (versions(own))
        @if let (true, Some(kept)) = (kept_is_newest, kept) {
            @if !own.is_empty() { ", " }
            span.version { (kept.to_string()) } " (kept)"
        }
    }
}

/// Versions separated by commas, each one unbroken (`span.version`): a narrow screen wraps
/// between versions, never inside one (`1.22.1-9+deb13u1` stays whole).
fn versions(list: &[Evr]) -> Markup {
    html! {
        @for (i, evr) in list.iter().enumerate() {
            @if i > 0 { ", " }
            span.version { (evr.to_string()) }
        }
    }
}

/// The advisories added, dropped and re-issued, with counts by type; a dropped security
/// advisory is called out as a regression first; `drops` says who drops it from whom
/// ("this deploy drops security advisories production has now").
pub fn advisory_section(diff: &AdvisoryDiff, drops: &str) -> Markup {
    html! {
        @if diff.drops_security() {
            (notice("error", Some("advisory-regression"), html! {
                strong { "Regression: " (drops) ". " }
                "Hosts updating from it lose these fixes' records, and may lose the fixed packages: "
                @for (i, a) in diff.dropped.iter().filter(|a| a.kind == AdvisoryType::Security).enumerate() {
                    @if i > 0 { ", " } code { (a.id) }
                }
                ". Deploy a version that still holds them, unless dropping them is intended."
            }))
        }
        @for (label, change, list) in [("Advisories added", "added", &diff.added), ("Advisories dropped", "dropped", &diff.dropped), ("Advisories re-issued", "updated", &diff.updated)] {
            @if !list.is_empty() {
                div.advisories data-advisories=(change) {
                    h3 { (label) ": " span data-advisory-counts { (count_by_type(list)) } }
                    ul { @for a in list.iter() { (advisory(a, change)) } }
                }
            }
        }
    }
}

fn advisory(a: &Advisory, change: &str) -> Markup {
    html! {
        li data-advisory=(a.id) data-advisory-type=(a.kind.as_str()) data-advisory-change=(change) {
            code { (a.id) } " "
            span class={ "tag " (a.kind.as_str()) } { (a.kind.as_str()) }
            @if let Some(severity) = &a.severity { " " span.severity { (severity) } }
            " " bdi { (a.title) }
        }
    }
}
