//! The advisory reads of the exposure, for [`PulpClient`]: advisories by id with the builds
//! their package lists name (`id__in=`, batched to fit Pulp's request line), which of them a
//! version holds (`repository_version=` with `id__in=`), and the list of every advisory newest
//! first with its references (`ordering=-pulp_created`, for the CVE index: Pulp has no filter by
//! CVE, nor by creation time). Only the fields read are asked for.

use futures::stream::{self, StreamExt, TryStreamExt};

use super::advisory_dto::{
    AdvisoryFixDto, AdvisoryIdDto, AdvisoryRefsDto, FIX_FIELDS, REFERENCE_FIELDS,
};
use super::content::name_batches;
use super::dto::PageDto;
use super::plugins::ADVISORIES;
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::exposure::{AdvisoryFix, IndexedAdvisory};
use crate::domain::repository::VersionHref;
use crate::ports::{Page, PageRequest, UpstreamError};

/// Bytes of ids (encoded) per `id__in=` request (see `NAMES_BYTES_PER_REQUEST`).
const IDS_BYTES_PER_REQUEST: usize = 3000;
/// Advisories per request when reading by id.
const ADVISORY_PAGE_SIZE: u64 = 500;
/// `id__in=` requests in flight at once.
const CONCURRENT_ID_BATCHES: usize = 4;

impl PulpClient {
    pub(super) async fn read_advisory_fixes(
        &self,
        ids: &[String],
    ) -> Result<Vec<AdvisoryFix>, UpstreamError> {
        let batches = name_batches(ids, IDS_BYTES_PER_REQUEST);
        let pages: Vec<Vec<AdvisoryFixDto>> = stream::iter(batches)
            .map(|batch| async move {
                let path = with_query(
                    ADVISORIES,
                    &[("fields", FIX_FIELDS), ("ordering", "pulp_id")],
                );
                self.get_all_by::<AdvisoryFixDto>(
                    &format!("{path}&id__in={batch}"),
                    ADVISORY_PAGE_SIZE,
                )
                .await
            })
            .buffer_unordered(CONCURRENT_ID_BATCHES)
            .try_collect()
            .await?;
        let mut fixes: Vec<AdvisoryFix> = Vec::new();
        for fix in pages.into_iter().flatten().map(AdvisoryFix::from) {
            match fixes.iter_mut().find(|f| f.id == fix.id) {
                Some(merged) => merged.builds.extend(fix.builds),
                None => fixes.push(fix),
            }
        }
        Ok(fixes)
    }

    pub(super) async fn read_advisories_held(
        &self,
        version: &VersionHref,
        ids: &[String],
    ) -> Result<Vec<String>, UpstreamError> {
        let batches = name_batches(ids, IDS_BYTES_PER_REQUEST);
        let pages: Vec<Vec<AdvisoryIdDto>> = stream::iter(batches)
            .map(|batch| async move {
                let path = with_query(
                    ADVISORIES,
                    &[
                        ("repository_version", version.as_str()),
                        ("fields", "id"),
                        ("ordering", "pulp_id"),
                    ],
                );
                self.get_all_by::<AdvisoryIdDto>(
                    &format!("{path}&id__in={batch}"),
                    ADVISORY_PAGE_SIZE,
                )
                .await
            })
            .buffer_unordered(CONCURRENT_ID_BATCHES)
            .try_collect()
            .await?;
        let mut held: Vec<String> = pages.into_iter().flatten().map(|a| a.id).collect();
        held.sort();
        held.dedup();
        Ok(held)
    }

    pub(super) async fn read_advisory_references(
        &self,
        page: PageRequest,
    ) -> Result<Page<IndexedAdvisory>, UpstreamError> {
        let url = with_query(
            &self.url_for(ADVISORIES)?,
            &[
                ("ordering", "-pulp_created"),
                ("offset", &page.offset.to_string()),
                ("limit", &page.limit.max(1).to_string()),
                ("fields", REFERENCE_FIELDS),
            ],
        );
        let found: PageDto<AdvisoryRefsDto> = self.get_json(&url).await?;
        Ok(Page {
            items: found
                .results
                .into_iter()
                .map(IndexedAdvisory::from)
                .collect(),
            total: found.count,
        })
    }
}
