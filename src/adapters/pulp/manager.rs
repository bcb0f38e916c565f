//! [`RepositoryManager`] for [`PulpClient`]: each port method as Pulp REST calls.

use std::collections::HashMap;

use async_trait::async_trait;
use hyper::Method;
use serde_json::json;

use super::dto::{DistributionDto, PublicationDto, RepositoryDto, TaskDto};
use super::repo_list::REPO_FIELDS;
use super::PulpClient;
use crate::adapters::pulp::pagination::{encode, with_query};
use crate::adapters::shared::sync_failure::sync_state_logged;
use crate::adapters::shared::task_outcome::{created_publication, write_outcome, PollPace};
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::domain::sync::{SyncState, TaskReport};
use crate::ports::{Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome};

const DISTRIBUTION_FIELDS: &str = "pulp_href,name,base_path,publication,pulp_last_updated";
pub(super) const PUBLICATION_FIELDS: &str = "pulp_href,repository_version";
/// Distributions per call when all are listed: Pulp sets no maximum, and with five short
/// fields 5,000 make about 1.2 MB. Measured on 2 cores (`cargo bench --bench scale --
/// dashboard`), Pulp answered 5,000 in one call in 1.7 s, in five calls of 1,000 at once in
/// 2.8 s (its API workers share the cores: pages do not run in parallel, and each call
/// counts the list again). Longer lists are read in pages of this size, all at once: the
/// client remembers the list's length from its last read.
const DISTRIBUTIONS_PER_CALL: u64 = 5000;
/// Names per `name__in` query (a URL stays short).
const NAMES_PER_QUERY: usize = 50;

/// The filters that find distributions by name: `name__in` for batches of names, `name` for
/// a name with a comma in it (which `name__in` would split).
fn names_queries(names: &[String]) -> Vec<(&'static str, String)> {
    let (odd, plain): (Vec<&String>, Vec<&String>) = names.iter().partition(|n| n.contains(','));
    let batches = plain.chunks(NAMES_PER_QUERY).map(|batch| {
        (
            "name__in",
            batch
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(","),
        )
    });
    batches
        .chain(odd.into_iter().map(|n| ("name", n.clone())))
        .collect()
}

/// The first look at a task, and the longest pause between two looks.
const FIRST_POLL: std::time::Duration = std::time::Duration::from_millis(50);
const LONGEST_POLL: std::time::Duration = std::time::Duration::from_secs(1);
pub(super) const TASK_FIELDS: &str =
    "pulp_href,state,error,progress_reports,created_resources,reserved_resources_record";

impl PulpClient {
    pub(super) async fn read_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError> {
        let url = with_query(&self.url_for(task.as_str())?, &[("fields", TASK_FIELDS)]);
        self.get_json::<TaskDto>(&url).await?.into_domain()
    }

    /// Waits for the task a change started and says what came of it.
    async fn finish_write<T>(
        &self,
        submitted: Result<TaskHref, UpstreamError>,
        result: impl FnOnce(&TaskReport) -> Result<T, UpstreamError>,
    ) -> WriteOutcome<T> {
        let pace = PollPace {
            first: FIRST_POLL,
            longest: LONGEST_POLL,
            timeout: self.settings.task_timeout,
        };
        write_outcome(
            submitted,
            pace,
            |task| async move { self.read_task(&task).await },
            result,
        )
        .await
    }

    pub(super) fn remember(&self, publication: &Publication) {
        self.publications
            .remember(publication.href.clone(), publication.clone());
    }
}

#[async_trait]
impl RepositoryManager for PulpClient {
    #[tracing::instrument(skip_all, fields(offset = page.offset, limit = page.limit))]
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        self.repository_page(page).await
    }

    #[tracing::instrument(skip_all, fields(name))]
    async fn repo_named(&self, name: &str) -> Result<Option<Repository>, UpstreamError> {
        self.repository_named(name).await
    }

    #[tracing::instrument(skip_all, fields(repo = %id))]
    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        let url = with_query(
            &self.url_for(&self.repo_href(id).await?)?,
            &[("fields", REPO_FIELDS)],
        );
        let repo = self.get_json::<RepositoryDto>(&url).await?.into_domain()?;
        self.learn_types([&repo]);
        Ok(repo)
    }

    #[tracing::instrument(skip_all, fields(repo = %id, offset = page.offset, limit = page.limit))]
    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        self.newest_versions(id, page).await
    }

    #[tracing::instrument(skip_all, fields(repo = %id, count = numbers.len()))]
    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        self.versions_by_number(id, numbers).await
    }

    #[tracing::instrument(skip_all, fields(repo = %id, number = %number))]
    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        self.count_newer(id, number).await
    }

    #[tracing::instrument(skip_all)]
    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        let installed = self.installed().await?;
        let lists = installed.iter().map(|plugin| async move {
            let path = format!("{}?fields={DISTRIBUTION_FIELDS}", plugin.distributions);
            let seen = &self.distributions_seen[plugin.content_type as usize];
            self.get_all_remembering::<DistributionDto>(&path, DISTRIBUTIONS_PER_CALL, seen)
                .await
        });
        let found = futures::future::try_join_all(lists).await?;
        Ok(found
            .into_iter()
            .flatten()
            .map(DistributionDto::into_domain)
            .collect())
    }

    #[tracing::instrument(skip_all, fields(names = names.len()))]
    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError> {
        let installed = self.installed().await?;
        let queries = names_queries(names);
        let queries = installed.iter().flat_map(|plugin| {
            queries.iter().map(move |(filter, value)| async move {
                let path = format!(
                    "{}?{filter}={}&fields={DISTRIBUTION_FIELDS}",
                    plugin.distributions,
                    encode(value)
                );
                self.get_all::<DistributionDto>(&path).await
            })
        });
        let found = futures::future::try_join_all(queries).await?;
        Ok(found
            .into_iter()
            .flatten()
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
        if let Some(publication) = self.publications.get(href) {
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

    #[tracing::instrument(skip_all, fields(count = hrefs.len()))]
    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        self.publications_by_href(hrefs).await
    }

    #[tracing::instrument(skip_all, fields(repo = %repo, version = %version))]
    async fn reusable_publications(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError> {
        self.publications_like_now(repo, version).await
    }

    #[tracing::instrument(skip_all, fields(version = %version))]
    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref> {
        let submitted = match self.publication_request(version).await {
            Ok((url, body)) => self.start_task(Method::POST, &url, &body).await,
            Err(error) => Err(error),
        };
        self.finish_write(submitted, created_publication).await
    }

    #[tracing::instrument(skip_all, fields(distribution = %distribution, publication = %publication))]
    async fn point_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> WriteOutcome<()> {
        let submitted = match self.url_for(distribution.as_str()) {
            Ok(url) => {
                let body = json!({ "publication": publication.as_str() });
                self.start_task(Method::PATCH, &url, &body).await
            }
            Err(error) => Err(error),
        };
        self.finish_write(submitted, |_| Ok(())).await
    }

    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        self.changes_of(distribution, limit).await
    }

    #[tracing::instrument(skip_all, fields(repo = %id, remote = %remote))]
    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError> {
        let url = self.url_for(&format!("{}sync/", self.repo_href(id).await?))?;
        let task = self
            .start_task(Method::POST, &url, &json!({ "remote": remote.as_str() }))
            .await?;
        Ok(sync_state_logged(&self.read_task(&task).await?))
    }

    #[tracing::instrument(skip_all, fields(repos = ids.len()))]
    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError> {
        let tasks = self.newest_sync_tasks(ids).await?;
        Ok(tasks
            .into_iter()
            .map(|(id, task)| (id, sync_state_logged(&task)))
            .collect())
    }
}
