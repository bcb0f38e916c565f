//! Advisories as the exposure reads them from the in-memory Pulp: each uploaded unit with the
//! builds its package list names, the CVEs its references name and when it was created (the
//! order of Pulp's `ordering=-pulp_created`). A unit is also an advisory by id that versions
//! can hold (see `content.rs`).

use std::collections::BTreeSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::in_memory::InMemoryPulp;
use super::state::AdvisoryUnit;
use crate::domain::diff::{Advisory, AdvisoryType};
use crate::domain::exposure::{AdvisoryFix, CveId, IndexedAdvisory};
use crate::domain::repository::{RepoId, VersionHref};
use crate::ports::{Page, PageRequest, UpstreamError};

impl InMemoryPulp {
    /// Uploads a security advisory fixing `fix.builds` and naming `cves` (as `POST
    /// content/rpm/advisories/` with `references`), created at `created`; answers its href. An
    /// advisory already uploaded with [`InMemoryPulp::upload_advisory`] keeps its words.
    /// Versions hold it by id once added with [`crate::adapters::memory::ContentChange`].
    pub fn upload_advisory_unit(
        &self,
        fix: AdvisoryFix,
        cves: &[&str],
        created: DateTime<Utc>,
    ) -> String {
        let mut state = self.lock();
        let href = format!("/pulp/api/v3/content/rpm/advisories/{}/", state.next_uuid());
        let names: BTreeSet<String> = fix.builds.iter().map(|b| b.name.clone()).collect();
        state
            .advisories
            .entry(fix.id.clone())
            .or_insert_with(|| Advisory {
                id: fix.id.clone(),
                kind: AdvisoryType::Security,
                severity: Some("Important".into()),
                title: format!("{} security update", fix.id),
                packages: names.into_iter().collect(),
            });
        let indexed = IndexedAdvisory {
            href: href.clone(),
            id: fix.id.clone(),
            created,
            cves: cves
                .iter()
                .map(|c| CveId::parse(c).expect("a CVE id"))
                .collect(),
        };
        state.advisory_units.push(AdvisoryUnit { indexed, fix });
        href
    }

    /// How many advisory units the in-memory Pulp holds.
    pub fn advisory_units(&self) -> usize {
        self.lock().advisory_units.len()
    }
}

/// The part of [`crate::ports::AdvisoryCatalog`] the exposure reads (called from `content.rs`).
#[async_trait]
pub(super) trait AdvisoryUnits {
    async fn fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError>;
    async fn held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError>;
    async fn references(&self, page: PageRequest) -> Result<Page<IndexedAdvisory>, UpstreamError>;
}

#[async_trait]
impl AdvisoryUnits for InMemoryPulp {
    async fn fixes(&self, ids: &[String]) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        let _call = self
            .enter(format!("advisory_fixes ({} ids)", ids.len()))
            .await;
        let state = self.lock();
        let mut found: Vec<AdvisoryFix> = Vec::new();
        for unit in state
            .advisory_units
            .iter()
            .filter(|u| ids.contains(&u.fix.id))
        {
            match found.iter_mut().find(|f| f.id == unit.fix.id) {
                Some(merged) => merged.builds.extend(unit.fix.builds.iter().cloned()),
                None => found.push(unit.fix.clone()),
            }
        }
        Ok(found)
    }

    async fn held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        let _call = self
            .enter(format!("advisories_held {version} ({} ids)", ids.len()))
            .await;
        let state = self.lock();
        let unknown = || {
            super::state::bad_request(
                "repository_version",
                &format!("URI {version} not found for repositoryversion."),
            )
        };
        let repo = RepoId::from_href(version.as_str()).ok_or_else(unknown)?;
        let number = version.number().ok_or_else(unknown)?.get();
        let entry = state.repo(&repo).map_err(|_| unknown())?;
        let held = &entry
            .versions
            .iter()
            .find(|v| v.number == number)
            .ok_or_else(unknown)?
            .advisories;
        Ok(ids
            .iter()
            .filter(|id| held.contains(*id))
            .cloned()
            .collect())
    }

    async fn references(&self, page: PageRequest) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        let _call = self
            .enter(format!(
                "advisory_references {} {}",
                page.offset, page.limit
            ))
            .await;
        let state = self.lock();
        let mut newest_first: Vec<&AdvisoryUnit> = state.advisory_units.iter().collect();
        newest_first.sort_by_key(|u| std::cmp::Reverse(u.indexed.created));
        let offset = usize::try_from(page.offset).unwrap_or(usize::MAX);
        let limit = usize::try_from(page.limit.max(1)).unwrap_or(usize::MAX);
        Ok(Page {
            items: newest_first
                .into_iter()
                .skip(offset)
                .take(limit)
                .map(|u| u.indexed.clone())
                .collect(),
            total: state.advisory_units.len() as u64,
        })
    }
}
