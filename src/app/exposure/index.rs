//! The CVE index kept up to date: loaded from its store (files beside the diffs, or the
//! replicas' database) the first time it is needed, built from every advisory when missing,
//! then brought up to date at each CVE question by reading Pulp's advisories newest first down
//! to the overlap below the newest indexed (usually one page). Questions wait for one another
//! here, so the first one waits for the build and none answers from a half-built index: a
//! refresh that fails changes nothing.

use futures::stream::{self, StreamExt, TryStreamExt};

use crate::domain::exposure::{CveId, CveIndex, Fill, IndexedAdvisory};
use crate::ports::{PageRequest, UpstreamError};

use super::answer::IndexFacts;
use crate::app::state::AppState;

/// Advisories per request (only their href, creation time, id and references are read).
const PAGE: u64 = 1000;
/// Advisories asked by a refresh's first request.
const FIRST_REFRESH_PAGE: u64 = 100;
/// Pages in flight at once while the index is built whole.
const PAGES_IN_FLIGHT: usize = 4;

/// The ids of the advisories whose references name `cve`, from the index brought up to date
/// now, and the index's size and freshness.
pub async fn advisories_naming(
    state: &AppState,
    cve: &CveId,
) -> Result<(Vec<String>, IndexFacts), UpstreamError> {
    let keeper = state.cve_index();
    let mut held = keeper.lock().await;
    if held.is_none() {
        *held = keeper.load().await;
    }
    let mut index = held.clone().unwrap_or_default();
    let before = index.advisories();
    let floor = index.floor();
    let started = state.clock.now().await;
    let pages = read_down_to(state, floor).await?;
    for (page, last) in pages {
        index.add_page(page, floor, last);
    }
    index.refreshed_at(started);
    if index.advisories() != before || held.is_none() {
        keeper.save(&index).await;
        tracing::info!(
            advisories = index.advisories(),
            added = index.advisories() - before,
            "CVE index brought up to date"
        );
    }
    let facts = IndexFacts {
        advisories: index.advisories(),
        refreshed: index.refreshed(),
    };
    state.metrics.cve_index(
        index.advisories(),
        index.cves(),
        index.refreshed().map_or(0, |t| t.timestamp()),
    );
    let ids = index.advisories_naming(cve);
    *held = Some(index);
    Ok((ids, facts))
}

/// The pages of advisories a refresh stopping at `floor` reads, each with whether it is the
/// last of the list: (no floor: the index is built) every page, several at a time; else page
/// by page down to the floor, the first one small (a refresh usually finds little or nothing
/// new).
async fn read_down_to(
    state: &AppState,
    floor: Option<chrono::DateTime<chrono::Utc>>,
) -> Result<Vec<(Vec<IndexedAdvisory>, bool)>, UpstreamError> {
    let content = state.content.as_ref();
    let Some(floor) = floor else {
        let page_at = |n: u64| PageRequest {
            offset: n * PAGE,
            limit: PAGE,
        };
        let first = content.advisory_references(page_at(0)).await?;
        let pages_in_all = first.total.div_ceil(PAGE).max(1);
        let last = |n: u64| n + 1 >= pages_in_all;
        let mut pages = vec![(first.items, last(0))];
        let rest: Vec<(Vec<IndexedAdvisory>, bool)> = stream::iter(1..pages_in_all)
            .map(|n| async move {
                let page = content.advisory_references(page_at(n)).await?;
                Ok::<_, UpstreamError>((page.items, last(n)))
            })
            .buffered(PAGES_IN_FLIGHT)
            .try_collect()
            .await?;
        pages.extend(rest);
        return Ok(pages);
    };
    let mut pages = Vec::new();
    let (mut offset, mut limit) = (0, FIRST_REFRESH_PAGE);
    loop {
        let page = content
            .advisory_references(PageRequest { offset, limit })
            .await?;
        offset += page.items.len() as u64;
        let last = page.items.is_empty() || offset >= page.total;
        let fill = CveIndex::fill_after(&page.items, Some(floor), last);
        pages.push((page.items, last));
        if fill == Fill::Done {
            return Ok(pages);
        }
        limit = PAGE;
    }
}
