//! [`RepositoryManager`] for [`PulpClient`]: each port method as Pulp REST calls.

use std::collections::HashMap;

use async_trait::async_trait;
use hyper::Method;
use serde_json::json;

use super::dto::{DistributionDto, PageDto, PublicationDto, RepositoryDto, TaskDto, VersionDto};
use super::pagination::{encode, with_query};
use super::PulpClient;
use crate::domain::{
    Distribution, DistributionHref, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion,
    Repository, TaskHref, VersionHref,
};
use crate::ports::{FinishedTask, Page, PageRequest, RepositoryManager, TaskReport, UpstreamError};

const REPO_FIELDS: &str = "pulp_href,name,repo_config,checksum_type,metadata_checksum_type,\
                           gpgcheck,repo_gpgcheck,metadata_signing_service,latest_version_href,remote";
const VERSION_FIELDS: &str = "pulp_href,pulp_created,number,content_summary";
const DISTRIBUTION_FIELDS: &str = "pulp_href,name,base_path,publication";
const PUBLICATION_FIELDS: &str = "pulp_href,repository_version";
pub(super) const TASK_FIELDS: &str =
    "pulp_href,state,error,progress_reports,created_resources,reserved_resources_record";

impl PulpClient {
    pub(super) async fn read_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError> {
        let url = with_query(&self.url_for(task.as_str())?, &[("fields", TASK_FIELDS)]);
        self.get_json::<TaskDto>(&url).await?.into_domain()
    }

    fn remember(&self, publication: &Publication) {
        if let Ok(mut cache) = self.publications.lock() {
            cache.insert(publication.href.clone(), publication.clone());
        }
    }
}

#[async_trait]
impl RepositoryManager for PulpClient {
    #[tracing::instrument(skip_all, fields(offset = page.offset, limit = page.limit))]
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        let url = with_query(
            &self.url_for("repositories/rpm/rpm/")?,
            &[
                ("ordering", "name"),
                ("offset", &page.offset.to_string()),
                ("limit", &page.limit.max(1).to_string()),
                ("fields", REPO_FIELDS),
            ],
        );
        let found: PageDto<RepositoryDto> = self.get_json(&url).await?;
        let items = found
            .results
            .into_iter()
            .map(RepositoryDto::into_domain)
            .collect::<Result<_, _>>()?;
        Ok(Page {
            items,
            total: found.count,
        })
    }

    #[tracing::instrument(skip_all, fields(repo = %id))]
    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        let url = with_query(
            &self.url_for(&self.repo_href(id))?,
            &[("fields", REPO_FIELDS)],
        );
        self.get_json::<RepositoryDto>(&url).await?.into_domain()
    }

    #[tracing::instrument(skip_all, fields(repo = %id))]
    async fn list_versions(&self, id: &RepoId) -> Result<Vec<RepoVersion>, UpstreamError> {
        let path = format!("{}versions/?fields={VERSION_FIELDS}", self.repo_href(id));
        let versions: Vec<VersionDto> = self.get_all(&path).await?;
        versions.into_iter().map(VersionDto::into_domain).collect()
    }

    #[tracing::instrument(skip_all)]
    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        let path = format!("distributions/rpm/rpm/?fields={DISTRIBUTION_FIELDS}");
        let found: Vec<DistributionDto> = self.get_all(&path).await?;
        Ok(found
            .into_iter()
            .map(DistributionDto::into_domain)
            .collect())
    }

    #[tracing::instrument(skip_all, fields(distribution = %href))]
    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError> {
        let url = with_query(
            &self.url_for(href.as_str())?,
            &[("fields", DISTRIBUTION_FIELDS)],
        );
        Ok(self.get_json::<DistributionDto>(&url).await?.into_domain())
    }

    #[tracing::instrument(skip_all, fields(publication = %href))]
    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError> {
        let cached = self
            .publications
            .lock()
            .ok()
            .and_then(|c| c.get(href).cloned());
        if let Some(publication) = cached {
            return Ok(publication);
        }
        let url = with_query(
            &self.url_for(href.as_str())?,
            &[("fields", PUBLICATION_FIELDS)],
        );
        let publication = self.get_json::<PublicationDto>(&url).await?.into_domain()?;
        self.remember(&publication);
        Ok(publication)
    }

    #[tracing::instrument(skip_all, fields(repo = %id))]
    async fn list_publications(&self, id: &RepoId) -> Result<Vec<Publication>, UpstreamError> {
        let path = format!(
            "publications/rpm/rpm/?repository={}&fields={PUBLICATION_FIELDS}",
            encode(&self.repo_href(id))
        );
        let found: Vec<PublicationDto> = self.get_all(&path).await?;
        let publications = found
            .into_iter()
            .map(PublicationDto::into_domain)
            .collect::<Result<Vec<_>, _>>()?;
        publications.iter().for_each(|p| self.remember(p));
        Ok(publications)
    }

    #[tracing::instrument(skip_all, fields(version = %version))]
    async fn create_publication(&self, version: &VersionHref) -> Result<TaskHref, UpstreamError> {
        let url = self.url_for("publications/rpm/rpm/")?;
        self.start_task(
            Method::POST,
            &url,
            &json!({ "repository_version": version.as_str() }),
        )
        .await
    }

    #[tracing::instrument(skip_all, fields(distribution = %distribution, publication = %publication))]
    async fn update_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> Result<TaskHref, UpstreamError> {
        let url = self.url_for(distribution.as_str())?;
        self.start_task(
            Method::PATCH,
            &url,
            &json!({ "publication": publication.as_str() }),
        )
        .await
    }

    #[tracing::instrument(skip_all, fields(task = %task))]
    async fn wait_for_task(&self, task: &TaskHref) -> Result<FinishedTask, UpstreamError> {
        self.poll_until_final(task).await
    }

    #[tracing::instrument(skip_all, fields(task = %task))]
    async fn get_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError> {
        self.read_task(task).await
    }

    #[tracing::instrument(skip_all, fields(repo = %id, remote = %remote))]
    async fn sync(&self, id: &RepoId, remote: &RemoteHref) -> Result<TaskHref, UpstreamError> {
        let url = self.url_for(&format!("{}sync/", self.repo_href(id)))?;
        self.start_task(Method::POST, &url, &json!({ "remote": remote.as_str() }))
            .await
    }

    #[tracing::instrument(skip_all, fields(repos = ids.len()))]
    async fn latest_sync_tasks(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError> {
        self.newest_sync_tasks(ids).await
    }
}
