//! The index Pulp does not keep: which advisories name a CVE in their references. Advisories
//! are immutable content, so each is read once: the index is filled from Pulp's list newest
//! first (`ordering=-pulp_created`), down to ten minutes before the newest advisory already
//! indexed, or before the last refresh began when that is later (an advisory whose creation
//! committed late, or a page shifted by new ones, is read again, never missed; a burst of
//! thousands created by one sync is not read again at every refresh once the refresh is ten
//! minutes past it). Several advisory units may share one id: they are keyed by href.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::query::CveId;

/// How far below the newest indexed advisory a refresh reads again.
pub const OVERLAP_MINUTES: i64 = 10;

/// One advisory as the index keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexedAdvisory {
    /// Pulp's href of the unit (several units may share an id).
    pub href: String,
    /// The advisory's id (`RHSA-2026:1234`).
    pub id: String,
    pub created: DateTime<Utc>,
    /// The CVEs its references name.
    pub cves: BTreeSet<CveId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    id: String,
    created: DateTime<Utc>,
    cves: BTreeSet<CveId>,
}

/// The index: every advisory read so far, by href, and when it was last brought up to date.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CveIndex {
    advisories: BTreeMap<String, Entry>,
    refreshed: Option<DateTime<Utc>>,
}

/// Whether a refresh has read far enough.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fill {
    /// Read the next page.
    More,
    /// The pages read reach below the floor (or the list ended): the index is up to date.
    Done,
}

impl CveIndex {
    /// Where a refresh may stop: the newest indexed advisory's creation or the start of the
    /// last refresh, whichever is later, less the overlap (which also covers a difference
    /// between the console's clock and Pulp's). `None` for an empty index (a refresh then reads
    /// every advisory).
    pub fn floor(&self) -> Option<DateTime<Utc>> {
        let newest = self.advisories.values().map(|e| e.created).max()?;
        let since = self.refreshed.map_or(newest, |r| r.max(newest));
        Some(since - Duration::minutes(OVERLAP_MINUTES))
    }

    /// Whether a refresh that stops at `floor` (the floor before it began) reads on after
    /// `page` of Pulp's list (newest first); `last_page`: the list has no more.
    pub fn fill_after(
        page: &[IndexedAdvisory],
        floor: Option<DateTime<Utc>>,
        last_page: bool,
    ) -> Fill {
        let oldest = page.iter().map(|a| a.created).min();
        let below_floor = matches!((oldest, floor), (Some(oldest), Some(floor)) if oldest < floor);
        if last_page || below_floor || oldest.is_none() {
            Fill::Done
        } else {
            Fill::More
        }
    }

    /// Adds one page of Pulp's list (newest first), read for a refresh that stops at `floor`
    /// (the floor before the refresh began); `last_page`: the list has no more.
    pub fn add_page(
        &mut self,
        page: Vec<IndexedAdvisory>,
        floor: Option<DateTime<Utc>>,
        last_page: bool,
    ) -> Fill {
        let fill = Self::fill_after(&page, floor, last_page);
        for advisory in page {
            self.advisories.insert(
                advisory.href,
                Entry {
                    id: advisory.id,
                    created: advisory.created,
                    cves: advisory.cves,
                },
            );
        }
        fill
    }

    /// Marks the index up to date as of `at`: when the refresh that brought it up to date
    /// began (what was committed in Pulp before then has been read).
    pub fn refreshed_at(&mut self, at: DateTime<Utc>) {
        self.refreshed = Some(at);
    }

    /// When the index was last brought up to date.
    pub fn refreshed(&self) -> Option<DateTime<Utc>> {
        self.refreshed
    }

    /// The ids of the advisories naming `cve`, each once, sorted.
    pub fn advisories_naming(&self, cve: &CveId) -> Vec<String> {
        let ids: BTreeSet<&str> = self
            .advisories
            .values()
            .filter(|e| e.cves.contains(cve))
            .map(|e| e.id.as_str())
            .collect();
        ids.into_iter().map(str::to_owned).collect()
    }

    /// Advisory units indexed.
    pub fn advisories(&self) -> usize {
        self.advisories.len()
    }

    /// Distinct CVEs named.
    pub fn cves(&self) -> usize {
        self.advisories
            .values()
            .flat_map(|e| e.cves.iter())
            .collect::<BTreeSet<_>>()
            .len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minute: i64) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-26T08:00:00Z")
            .unwrap()
            .to_utc()
            + Duration::minutes(minute)
    }

    fn advisory(n: u32, minute: i64, cves: &[&str]) -> IndexedAdvisory {
        IndexedAdvisory {
            href: format!("/pulp/api/v3/content/rpm/advisories/{n}/"),
            id: format!("RHSA-{n}"),
            created: at(minute),
            cves: cves.iter().map(|c| CveId::parse(c).unwrap()).collect(),
        }
    }

    #[test]
    fn an_empty_index_reads_every_page_and_then_stops_at_the_overlap() {
        let mut index = CveIndex::default();
        assert_eq!(index.floor(), None);
        let first = vec![advisory(3, 30, &["CVE-2026-0003"]), advisory(2, 20, &[])];
        assert_eq!(index.add_page(first, None, false), Fill::More);
        let second = vec![advisory(1, 0, &["CVE-2026-0001", "CVE-2026-0003"])];
        assert_eq!(index.add_page(second, None, true), Fill::Done);
        assert_eq!(
            index.floor(),
            Some(at(20)),
            "30 minutes less the 10 of overlap"
        );
        let cve = CveId::parse("CVE-2026-0003").unwrap();
        assert_eq!(index.advisories_naming(&cve), ["RHSA-1", "RHSA-3"]);
        assert_eq!((index.advisories(), index.cves()), (3, 2));

        // A new advisory: the refresh reads the newest page, which reaches below the floor.
        let floor = index.floor();
        let page = vec![
            advisory(4, 40, &["CVE-2026-0003"]),
            advisory(3, 30, &["CVE-2026-0003"]),
            advisory(2, 20, &[]),
        ];
        assert_eq!(
            index.add_page(page.clone(), floor, false),
            Fill::More,
            "the floor itself reached: one more page, in case others were created then"
        );
        let below = vec![advisory(1, 0, &["CVE-2026-0001", "CVE-2026-0003"])];
        assert_eq!(index.add_page(below, floor, false), Fill::Done);
        assert_eq!(
            index.advisories(),
            4,
            "pages read again are not counted twice"
        );
        assert_eq!(
            index.advisories_naming(&cve),
            ["RHSA-1", "RHSA-3", "RHSA-4"]
        );
        let page = vec![advisory(5, 45, &[]), advisory(4, 40, &[])];
        let floor = index.floor();
        assert_eq!(
            index.add_page(page, floor, false),
            Fill::More,
            "40 is above 30: read on"
        );
        assert_eq!(
            index.add_page(vec![advisory(9, 29, &[])], floor, false),
            Fill::Done
        );
    }

    #[test]
    fn a_refresh_long_after_a_burst_reads_down_to_its_own_overlap_only() {
        let mut index = CveIndex::default();
        let burst: Vec<_> = (0..50).map(|n| advisory(n, 0, &[])).collect();
        index.add_page(burst, None, true);
        assert_eq!(
            index.floor(),
            Some(at(-10)),
            "never refreshed: the newest, less 10 min"
        );
        index.refreshed_at(at(60));
        assert_eq!(index.floor(), Some(at(50)), "refreshed an hour later");
        let floor = index.floor();
        let newest_page: Vec<_> = (0..50).map(|n| advisory(n, 0, &[])).collect();
        assert_eq!(
            CveIndex::fill_after(&newest_page, floor, false),
            Fill::Done,
            "the burst is below the floor: one page"
        );
        index.refreshed_at(at(-100));
        assert_eq!(
            index.floor(),
            Some(at(-10)),
            "a clock behind Pulp's: the newest wins"
        );
    }

    #[test]
    fn units_sharing_an_id_are_kept_apart_and_named_once() {
        let mut index = CveIndex::default();
        let mut twin = advisory(1, 0, &["CVE-2026-1000"]);
        twin.href = "/pulp/api/v3/content/rpm/advisories/other/".into();
        index.add_page(vec![advisory(1, 0, &["CVE-2026-1000"]), twin], None, true);
        assert_eq!(index.advisories(), 2);
        let cve = CveId::parse("CVE-2026-1000").unwrap();
        assert_eq!(index.advisories_naming(&cve), ["RHSA-1"]);
        assert!(index
            .advisories_naming(&CveId::parse("CVE-2026-9999").unwrap())
            .is_empty());
    }
}
