//! The compare page: every change between two versions of a repository, paged.

use maud::{html, Markup};

use crate::app::changes::Comparison;
use crate::domain::{RepoId, VersionNumber};

use super::changes::{advisory_section, kind_counts, package_change};
use super::layout::{notice, page};

/// Package changes per page.
pub const PAGE_SIZE: usize = 200;

/// The address of the comparison of `to` against `from`, at `page` (1-based).
pub fn compare_href(id: &RepoId, to: VersionNumber, from: VersionNumber, page: usize) -> String {
    let base = format!(
        "/repos/{id}/versions/{}/changes?against={}",
        to.get(),
        from.get()
    );
    if page > 1 {
        format!("{base}&page={page}")
    } else {
        base
    }
}

/// The full comparison, `page` (1-based) of its package changes.
pub fn compare_page(c: &Comparison, page_number: usize) -> Markup {
    let total = c.diff.packages.len();
    let pages = total.div_ceil(PAGE_SIZE).max(1);
    let current = page_number.clamp(1, pages);
    let start = (current - 1) * PAGE_SIZE;
    let shown = &c.diff.packages[start..(start + PAGE_SIZE).min(total)];
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
            }
            (advisory_section(&c.diff.advisories, &format!(
                "{} drops security advisories that {} has", c.to.label(), c.from.label()
            )))
            @if total > 0 {
                h2 { "Packages" }
                (kind_counts(&c.diff.packages))
                ul.package-changes.full { @for change in shown { (package_change(change)) } }
                @if pages > 1 { (pager(c, current, pages)) }
            }
        },
    )
}

fn pager(c: &Comparison, current: usize, pages: usize) -> Markup {
    let link = |n: usize| compare_href(&c.repo.id, c.to, c.from, n);
    html! {
        nav.pager aria-label="Pages of package changes" {
            @if current > 1 { a.ghost href=(link(current - 1)) rel="prev" { "\u{2190} Previous" } }
            span { "Page " (current) " of " (pages) }
            @if current < pages { a.ghost href=(link(current + 1)) rel="next" { "Next \u{2192}" } }
        }
    }
}
