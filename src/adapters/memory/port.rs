//! `RepositoryManager` for `InMemoryPulp`: the same answers and errors Pulp gives.

use std::collections::HashMap;

use async_trait::async_trait;

use super::in_memory::InMemoryPulp;
use super::state::not_found;
use crate::adapters::shared::sync_failure::sync_state_logged;
use crate::adapters::shared::task_outcome::created_publication;
use crate::domain::repository::{
    Distribution, DistributionChange, DistributionHref, Publication, PublicationHref, RemoteHref,
    RepoId, RepoVersion, Repository, TaskHref, VersionHref, VersionNumber,
};
use crate::domain::sync::SyncState;
use crate::ports::{Page, PageRequest, RepositoryManager, UpstreamError, WriteOutcome};

#[async_trait]
impl RepositoryManager for InMemoryPulp {
    async fn list_repos(&self, page: PageRequest) -> Result<Page<Repository>, UpstreamError> {
        let _call = self
            .enter(format!("list_repos {} {}", page.offset, page.limit))
            .await;
        let state = self.lock();
        let mut repos: Vec<Repository> = state.repos.values().map(|r| r.repo.clone()).collect();
        repos.sort_by(|a, b| a.name.cmp(&b.name));
        let total = repos.len() as u64;
        let items = repos
            .into_iter()
            .skip(page.offset as usize)
            .take(page.limit.max(1) as usize)
            .collect();
        Ok(Page { items, total })
    }

    async fn get_repo(&self, id: &RepoId) -> Result<Repository, UpstreamError> {
        let _call = self.enter(format!("get_repo {id}")).await;
        Ok(self.lock().repo(id)?.repo.clone())
    }

    async fn version_page(
        &self,
        id: &RepoId,
        page: PageRequest,
    ) -> Result<Page<RepoVersion>, UpstreamError> {
        let _call = self
            .enter(format!("version_page {id} {} {}", page.offset, page.limit))
            .await;
        let versions = self.lock().versions(id)?;
        Ok(Page {
            total: versions.len() as u64,
            items: versions
                .into_iter()
                .skip(usize::try_from(page.offset).unwrap_or(usize::MAX))
                .take(usize::try_from(page.limit.max(1)).unwrap_or(usize::MAX))
                .collect(),
        })
    }

    async fn versions_numbered(
        &self,
        id: &RepoId,
        numbers: &[VersionNumber],
    ) -> Result<Vec<RepoVersion>, UpstreamError> {
        let _call = self
            .enter(format!("versions_numbered {id} {}", numbers.len()))
            .await;
        let versions = self.lock().versions(id)?;
        Ok(versions
            .into_iter()
            .filter(|v| v.number().is_some_and(|n| numbers.contains(&n)))
            .collect())
    }

    async fn versions_newer_than(
        &self,
        id: &RepoId,
        number: VersionNumber,
    ) -> Result<u64, UpstreamError> {
        let _call = self
            .enter(format!("versions_newer_than {id} {number}"))
            .await;
        let versions = self.lock().versions(id)?;
        Ok(versions
            .iter()
            .filter(|v| v.number() > Some(number))
            .count() as u64)
    }

    async fn list_distributions(&self) -> Result<Vec<Distribution>, UpstreamError> {
        let _call = self.enter("list_distributions".into()).await;
        Ok(self
            .lock()
            .distributions
            .iter()
            .map(|d| d.dist.clone())
            .collect())
    }

    async fn distributions_named(
        &self,
        names: &[String],
    ) -> Result<Vec<Distribution>, UpstreamError> {
        let _call = self
            .enter(format!("distributions_named {}", names.len()))
            .await;
        Ok(self
            .lock()
            .distributions
            .iter()
            .filter(|d| names.contains(&d.dist.name))
            .map(|d| d.dist.clone())
            .collect())
    }

    async fn get_distribution(
        &self,
        href: &DistributionHref,
    ) -> Result<Distribution, UpstreamError> {
        let _call = self.enter(format!("get_distribution {href}")).await;
        Ok(self.lock().distribution_mut(href)?.dist.clone())
    }

    async fn get_publication(&self, href: &PublicationHref) -> Result<Publication, UpstreamError> {
        let _call = self.enter(format!("get_publication {href}")).await;
        self.lock()
            .publications
            .get(href)
            .cloned()
            .ok_or_else(not_found("RpmPublication"))
    }

    async fn publications(
        &self,
        hrefs: &[PublicationHref],
    ) -> Result<Vec<Publication>, UpstreamError> {
        let _call = self.enter(format!("publications {}", hrefs.len())).await;
        let mut wanted = hrefs.to_vec();
        wanted.sort();
        wanted.dedup();
        let state = self.lock();
        Ok(wanted
            .iter()
            .filter_map(|h| state.publications.get(h).cloned())
            .collect())
    }

    async fn reusable_publications(
        &self,
        repo: &RepoId,
        version: &VersionHref,
    ) -> Result<Vec<PublicationHref>, UpstreamError> {
        let _call = self.enter(format!("reusable_publications {version}")).await;
        let state = self.lock();
        let now = state
            .repos
            .get(repo)
            .map(|entry| entry.repo.verification.clone());
        Ok(state
            .publications
            .values()
            .filter(|p| &p.repository_version == version)
            .filter(|p| state.published_with.get(&p.href) == now.as_ref())
            .map(|p| p.href.clone())
            .collect())
    }

    async fn publish(&self, version: &VersionHref) -> WriteOutcome<PublicationHref> {
        let submitted = self.submit_publish(version).await;
        self.finish_write(submitted, created_publication, |task| self.poll_task(task))
            .await
    }

    async fn point_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> WriteOutcome<()> {
        let submitted = self.submit_point(distribution, publication).await;
        self.finish_write(submitted, |_| Ok(()), |task| self.poll_task(task))
            .await
    }

    async fn distribution_changes(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        let _call = self
            .enter(format!("distribution_changes {distribution}"))
            .await;
        Ok(self.lock().changes_of(distribution, limit))
    }

    async fn start_sync(
        &self,
        id: &RepoId,
        remote: &RemoteHref,
    ) -> Result<SyncState, UpstreamError> {
        let task = self.submit_sync(id, remote).await?;
        Ok(sync_state_logged(&self.poll_task(task).await?))
    }

    async fn sync_states(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, SyncState>, UpstreamError> {
        let _call = self.enter(format!("sync_states {}", ids.len())).await;
        let state = self.lock();
        let mut latest: HashMap<RepoId, (u64, TaskHref)> = HashMap::new();
        for (href, task) in state.tasks.iter().filter(|(_, t)| t.is_sync) {
            let Some(repo) = task.repo.as_ref().filter(|r| ids.contains(r)) else {
                continue;
            };
            let newer = latest.get(repo).is_none_or(|(seq, _)| task.seq > *seq);
            if newer {
                latest.insert(repo.clone(), (task.seq, href.clone()));
            }
        }
        latest
            .into_iter()
            .map(|(repo, (_, href))| {
                state
                    .task_report(&href)
                    .map(|report| (repo, sync_state_logged(&report)))
            })
            .collect()
    }
}
