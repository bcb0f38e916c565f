//! One page of repositories of every installed content plugin, in one order (by name).
//!
//! With one plugin installed, its own list answers (one call, as always). With several, the
//! generic list (`repositories/?pulp_type__in=rpm.rpm,deb.deb&ordering=name`) gives the page's
//! hrefs in order, since only it merges the types; it has none of a plugin's own fields
//! (verification, signing service), so each plugin's list is then asked for its repositories
//! of the page (`pulp_id__in=`), all at once: 1 + (number of types on the page) calls.

use futures::future::try_join_all;
use serde::Deserialize;

use super::dto::{PageDto, RepositoryDto};
use super::plugins::{plugin_of, Plugin};
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::repository::{RepoId, Repository};
use crate::ports::{Page, PageRequest, UpstreamError};

/// The fields of a repository the console reads, for every plugin (Pulp leaves out a field
/// the type does not have): pulp_rpm's verification settings, pulp_deb's `signing_service`.
pub(super) const REPO_FIELDS: &str = "pulp_href,name,repo_config,checksum_type,\
                                      metadata_checksum_type,gpgcheck,repo_gpgcheck,\
                                      metadata_signing_service,signing_service,\
                                      latest_version_href,remote,retain_repo_versions";
/// Ids per `pulp_id__in=` query (37 bytes each: the request line stays under Pulp's 4 KB).
const IDS_PER_QUERY: usize = 60;

#[derive(Debug, Deserialize)]
struct HrefDto {
    pulp_href: String,
}

impl PulpClient {
    pub(super) async fn repository_page(
        &self,
        page: PageRequest,
    ) -> Result<Page<Repository>, UpstreamError> {
        let installed = self.installed().await?;
        let paging = [
            ("ordering", "name".to_owned()),
            ("offset", page.offset.to_string()),
            ("limit", page.limit.max(1).to_string()),
        ];
        let paging: Vec<(&str, &str)> = paging.iter().map(|(k, v)| (*k, v.as_str())).collect();
        if let [only] = installed.as_slice() {
            let url = with_query(
                &self.url_for(only.repositories)?,
                &[paging.as_slice(), &[("fields", REPO_FIELDS)]].concat(),
            );
            let found: PageDto<RepositoryDto> = self.get_json(&url).await?;
            let items = into_domain(found.results)?;
            self.learn_types(&items);
            return Ok(Page {
                items,
                total: found.count,
            });
        }
        let types: Vec<&str> = installed.iter().map(|p| p.repository_type).collect();
        let types = types.join(",");
        let url = with_query(
            &self.url_for("repositories/")?,
            &[
                paging.as_slice(),
                &[("pulp_type__in", &types), ("fields", "pulp_href")],
            ]
            .concat(),
        );
        let order: PageDto<HrefDto> = self.get_json(&url).await?;
        let reads = installed.iter().flat_map(|plugin| {
            let ids: Vec<RepoId> = order
                .results
                .iter()
                .filter(|r| plugin_of(&r.pulp_href).is_some_and(|p| std::ptr::eq(p, *plugin)))
                .filter_map(|r| RepoId::from_href(&r.pulp_href))
                .collect();
            ids.chunks(IDS_PER_QUERY)
                .map(|batch| self.repositories_with_ids(plugin, batch.to_vec()))
                .collect::<Vec<_>>()
        });
        let read: Vec<Repository> = try_join_all(reads).await?.into_iter().flatten().collect();
        self.learn_types(&read);
        // In the generic list's order; one deleted in between is left out.
        let items = order
            .results
            .iter()
            .filter_map(|r| read.iter().find(|repo| repo.href == r.pulp_href).cloned())
            .collect();
        Ok(Page {
            items,
            total: order.count,
        })
    }

    async fn repositories_with_ids(
        &self,
        plugin: &Plugin,
        ids: Vec<RepoId>,
    ) -> Result<Vec<Repository>, UpstreamError> {
        let ids: Vec<&str> = ids.iter().map(RepoId::as_str).collect();
        let url = with_query(
            &self.url_for(plugin.repositories)?,
            &[
                ("pulp_id__in", &ids.join(",")),
                ("limit", &ids.len().max(1).to_string()),
                ("fields", REPO_FIELDS),
            ],
        );
        let found: PageDto<RepositoryDto> = self.get_json(&url).await?;
        into_domain(found.results)
    }

    /// The repository named `name` in any installed plugin (one call per plugin, at once).
    pub(super) async fn repository_named(
        &self,
        name: &str,
    ) -> Result<Option<Repository>, UpstreamError> {
        let installed = self.installed().await?;
        let reads = installed.iter().map(|plugin| async move {
            let url = with_query(
                &self.url_for(plugin.repositories)?,
                &[("name", name), ("limit", "1"), ("fields", REPO_FIELDS)],
            );
            self.get_json::<PageDto<RepositoryDto>>(&url).await
        });
        let found = try_join_all(reads).await?;
        let first = found.into_iter().flat_map(|page| page.results).next();
        let repo = first.map(RepositoryDto::into_domain).transpose()?;
        self.learn_types(&repo);
        Ok(repo)
    }
}

fn into_domain(found: Vec<RepositoryDto>) -> Result<Vec<Repository>, UpstreamError> {
    found.into_iter().map(RepositoryDto::into_domain).collect()
}
