//! The compare page: every change between two versions of a repository, the package changes
//! filtered by kind and name and paged, with the whole comparison to download.

pub mod filter;
pub mod links;

use maud::{html, Markup};

use crate::app::diffs::compare::Comparison;
use crate::domain::diff::{PackageChange, PackageFilter};

use crate::adapters::web::views::changes::{advisory_section, kind_counts, package_change};
use crate::adapters::web::views::compare::filter::{downloads, filter_form, match_count, no_match};
use crate::adapters::web::views::compare::links::{compare_href, filtered_href};
use crate::adapters::web::views::layout::{notice, page};

/// Package changes per page.
pub const PAGE_SIZE: usize = 200;

/// The full comparison: page `page_number` (1-based) of the package changes `filter` lets
/// through; the counts per kind are of every change.
pub fn compare_page(c: &Comparison, filter: &PackageFilter, page_number: usize) -> Markup {
    let total = c.diff.packages.len();
    let matching: Vec<&PackageChange> = filter.select(&c.diff.packages).collect();
    let pages = matching.len().div_ceil(PAGE_SIZE).max(1);
    let current = page_number.clamp(1, pages);
    let start = (current - 1) * PAGE_SIZE;
    let shown = &matching[start..(start + PAGE_SIZE).min(matching.len())];
    let title = format!("{} against {}", c.to.label(), c.from.label());
    page(
        &format!("{title} \u{2014} {}", c.repo.display_name()),
        html! {
            div.title-row {
                a.ghost.back-link href={ "/repos/" (c.repo.id) "/versions" } { "\u{2190} Versions" }
                h1 { "Changes of " (c.to.label()) " against " (c.from.label()) }
            }
            p.muted { "Repository " bdi { (c.repo.display_name()) } ". "
                a href=(compare_href(&c.repo.id, c.from, c.to, 1)) data-swap-link { "Swap: " (c.from.label()) " against " (c.to.label()) } }
            @if c.diff.is_empty() {
                (notice("ok", None, html! { "No package or advisory differs between these versions." }))
            } @else {
                (downloads(c, filter))
            }
            @if !c.diff.advisories.is_empty() { h2 { "Advisories" } }
            (advisory_section(&c.diff.advisories, &format!(
                "{} drops security advisories that {} has", c.to.label(), c.from.label()
            )))
            @if total > 0 {
                h2 { "Packages" }
                (kind_counts(&c.diff.packages))
                (filter_form(c, filter))
                (match_count(matching.len(), total, filter))
                @if matching.is_empty() { (no_match(c, filter)) }
                ul.package-changes.full { @for change in shown { (package_change(change)) } }
                @if pages > 1 { (pager(c, filter, current, pages)) }
            }
        },
    )
}

fn pager(c: &Comparison, filter: &PackageFilter, current: usize, pages: usize) -> Markup {
    let link = |n: usize| filtered_href(&c.repo.id, c.to, c.from, filter, n);
    html! {
        nav.pager aria-label="Pages of package changes" {
            @if current > 1 { a.ghost href=(link(current - 1)) rel="prev" { "\u{2190} Previous" } }
            span { "Page " (current) " of " (pages) }
            @if current < pages { a.ghost href=(link(current + 1)) rel="next" { "Next \u{2192}" } }
        }
    }
}
