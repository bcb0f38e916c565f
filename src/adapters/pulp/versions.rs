//! A repository's versions without reading them all: one page newest first
//! (`versions/?ordering=-number&offset=…&limit=…`, its `count` the total), the versions with
//! given numbers (`q=number=<a> OR number=<b> …`, 7 numbers a query: Pulp refuses version
//! hrefs in `pulp_href__in` and caps `q` at a complexity of 8), and a version's place in
//! the list (`number__gt=<n>&limit=1`, its `count`).

use futures::future::try_join_all;

use super::dto::{PageDto, VersionDto};
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::repository::{RepoId, RepoVersion, VersionNumber};
use crate::ports::{Page, PageRequest, UpstreamError};

const VERSION_FIELDS: &str = "pulp_href,pulp_created,number,content_summary";
/// Numbers per `q` query: 7 filters and their OR make Pulp's maximum complexity, 8.
const NUMBERS_PER_QUERY: usize = 7;

impl PulpClient {
    async fn versions_url(
        &self,
        id: &RepoId,
        query: &[(&str, &str)],
    ) -> Result<String, UpstreamError> {
        let url = self.url_for(&format!("{}versions/", self.repo_href(id).await?))?;
        Ok(with_query(&url, query))
    }

    pub(super) async fn newest_versions(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        let url = self
            .versions_url(
                id,
                &[
                    ("ordering", "-number"),
                    ("offset", &page.offset.to_string()),
                    ("limit", &page.limit.max(1).to_string()),
                    ("fields", VERSION_FIELDS),
                ],
            )
            .await?;
        let found: PageDto<VersionDto> = self.get_json(&url).await?;
        let items = found
            .results
            .into_iter()
            .map(VersionDto::into_domain)
            .collect::<Result<_, _>>()?;
        Ok(Page {
            items,
            total: found.count,
        })
    }

    pub(super) async fn versions_by_number(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        let mut wanted = numbers.to_vec();
        wanted.sort();
        wanted.dedup();
        let queries = wanted.chunks(NUMBERS_PER_QUERY).map(|batch| async move {
            let url = self
                .versions_url(
                    id,
                    &[
                        ("q", &any_number(batch)),
                        ("limit", &NUMBERS_PER_QUERY.to_string()),
                        ("fields", VERSION_FIELDS),
                    ],
                )
                .await?;
            self.get_json::<PageDto<VersionDto>>(&url).await
        });
        try_join_all(queries)
            .await?
            .into_iter()
            .flat_map(|page| page.results)
            .map(VersionDto::into_domain)
            .collect()
    }

    pub(super) async fn count_newer(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        let url = self
            .versions_url(
                id,
                &[
                    ("number__gt", &number.to_string()),
                    ("limit", "1"),
                    ("fields", "number"),
                ],
            )
            .await?;
        Ok(self
            .get_json::<PageDto<serde_json::Value>>(&url)
            .await?
            .count)
    }
}

/// `number=<a> OR number=<b> …`
fn any_number(numbers: &[VersionNumber]) -> String {
    numbers
        .iter()
        .map(|n| format!("number={n}"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_asked_for_in_one_or_expression() {
        let numbers = [3, 10].map(VersionNumber::new);
        assert_eq!(any_number(&numbers), "number=3 OR number=10");
        assert_eq!(any_number(&numbers[..1]), "number=3");
    }
}
