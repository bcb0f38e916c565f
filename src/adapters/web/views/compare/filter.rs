//! The compare page's filter: a GET form (kind, name), how many changes match, what to say
//! when none does, and the links to download the whole comparison.

use maud::{html, Markup};

use crate::app::diffs::compare::Comparison;
use crate::domain::diff::{ChangeKind, PackageFilter};

use crate::adapters::web::download::Format;
use crate::adapters::web::views::compare::links::{compare_href, download_href};
use crate::adapters::web::views::layout::notice;

/// The form: a kind of change (or any), a piece of the name, Filter; Clear when filtered.
pub fn filter_form(c: &Comparison, filter: &PackageFilter) -> Markup {
    let action = format!("/repos/{}/versions/{}/changes", c.repo.id, c.to.get());
    html! {
        form.compare-filter method="get" action=(action) role="search" aria-label="Filter the package changes" data-compare-filter {
            input type="hidden" name="against" value=(c.from.get());
            label for="filter-kind" {
                "Kind"
                select #filter-kind name="kind" {
                    option value="" selected[filter.kind().is_none()] { "Any kind" }
                    @for kind in ChangeKind::ALL {
                        option value=(kind.as_str()) selected[filter.kind() == Some(kind)] { (kind.label()) }
                    }
                }
            }
            label for="filter-name" {
                "Name contains"
                input #filter-name type="search" name="name" value=(filter.name().unwrap_or_default()) autocomplete="off";
            }
            button.primary type="submit" { "Filter" }
            @if !filter.is_everything() {
                a.ghost href=(compare_href(&c.repo.id, c.to, c.from, 1)) data-clear-filter { "Clear" }
            }
        }
    }
}

/// "N of M package changes match" when filtered, else "M package changes".
pub fn match_count(matching: usize, total: usize, filter: &PackageFilter) -> Markup {
    html! {
        p #filter-matches data-matches=(matching) data-total=(total) {
            (if filter.is_everything() { String::new() } else { format!("{matching} of ") })
            (total) " package " (if total == 1 { "change" } else { "changes" })
            @if !filter.is_everything() { " match" }
        }
    }
}

/// What the page says when the filter lets no change through.
pub fn no_match(c: &Comparison, filter: &PackageFilter) -> Markup {
    notice(
        "warn",
        Some("no-match"),
        html! {
            "No package change matches "
            @match (filter.kind(), filter.name()) {
                (Some(kind), Some(name)) => { "kind " strong { (kind.label()) } " with a name containing \u{201c}" bdi { (name) } "\u{201d}" },
                (Some(kind), None) => { "kind " strong { (kind.label()) } },
                (None, Some(name)) => { "a name containing \u{201c}" bdi { (name) } "\u{201d}" },
                (None, None) => { "this filter" },
            }
            ". "
            a href=(compare_href(&c.repo.id, c.to, c.from, 1)) { "Show every change" }
        },
    )
}

/// Links to the whole comparison as a file, with the filter when there is one.
pub fn downloads(c: &Comparison, filter: &PackageFilter) -> Markup {
    let what = if filter.is_everything() {
        "Download every change as"
    } else {
        "Download the matching changes as"
    };
    html! {
        p.downloads data-downloads {
            (what) " "
            @for (i, format) in Format::ALL.into_iter().enumerate() {
                @if i > 0 { " \u{b7} " }
                a href=(download_href(&c.repo.id, c.to, c.from, filter, format)) download data-download=(format.extension()) { (format.label()) }
            }
        }
    }
}
