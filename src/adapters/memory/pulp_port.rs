//! `RepositoryManager` for `InMemoryPulp`: the same answers and errors Pulp gives.

use std::collections::HashMap;
use std::time::Instant;

use async_trait::async_trait;

use super::pulp::InMemoryPulp;
use super::pulp_state::{bad_request, not_found, Effect};
use crate::domain::{
    Distribution, DistributionHref, Publication, PublicationHref, RemoteHref, RepoId, RepoVersion,
    Repository, TaskHref, VersionHref,
};
use crate::ports::{
    FinishedTask, Page, PageRequest, RepositoryManager, TaskReport, TaskState, UpstreamError,
};

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

    async fn list_versions(&self, id: &RepoId) -> Result<Vec<RepoVersion>, UpstreamError> {
        let _call = self.enter(format!("list_versions {id}")).await;
        self.lock().versions(id)
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

    async fn list_publications(&self, id: &RepoId) -> Result<Vec<Publication>, UpstreamError> {
        let _call = self.enter(format!("list_publications {id}")).await;
        let state = self.lock();
        state.repo(id)?;
        let mut list: Vec<Publication> = state
            .publications
            .values()
            .filter(|p| p.repository_version.belongs_to(id))
            .cloned()
            .collect();
        list.sort_by(|a, b| b.href.cmp(&a.href));
        Ok(list)
    }

    async fn create_publication(&self, version: &VersionHref) -> Result<TaskHref, UpstreamError> {
        let _call = self.enter(format!("create_publication {version}")).await;
        let invalid = || {
            bad_request(
                "repository_version",
                "Invalid hyperlink - Object does not exist.",
            )
        };
        let repo = RepoId::from_href(version.as_str()).ok_or_else(invalid)?;
        let number = version.number().ok_or_else(invalid)?.get();
        let mut state = self.lock();
        let exists = state
            .repo(&repo)
            .map(|r| r.versions.iter().any(|v| v.number == number))
            .unwrap_or(false);
        if !exists {
            return Err(invalid());
        }
        Ok(state.start_task(
            self.options.task_delay,
            Effect::Publish {
                repo: repo.clone(),
                number,
            },
            Some(repo),
        ))
    }

    async fn update_distribution(
        &self,
        distribution: &DistributionHref,
        publication: &PublicationHref,
    ) -> Result<TaskHref, UpstreamError> {
        let _call = self
            .enter(format!("update_distribution {distribution} {publication}"))
            .await;
        let mut state = self.lock();
        state.distribution_mut(distribution)?;
        if !state.publications.contains_key(publication) {
            return Err(bad_request(
                "publication",
                "Invalid hyperlink - Object does not exist.",
            ));
        }
        let effect = Effect::PointDistribution {
            distribution: distribution.clone(),
            publication: publication.clone(),
        };
        Ok(state.start_task(self.options.task_delay, effect, None))
    }

    async fn wait_for_task(&self, task: &TaskHref) -> Result<FinishedTask, UpstreamError> {
        let _call = self.enter(format!("wait_for_task {task}")).await;
        let deadline = Instant::now() + self.options.task_timeout;
        loop {
            let report = self.lock().task_report(task)?;
            match report.state {
                TaskState::Completed => {
                    return Ok(FinishedTask {
                        href: report.href,
                        created_resources: report.created_resources,
                    })
                }
                TaskState::Failed => {
                    return Err(UpstreamError::TaskFailed(report.error.unwrap_or_default()))
                }
                TaskState::Canceled => return Err(UpstreamError::TaskCanceled(task.to_string())),
                _ if Instant::now() >= deadline => {
                    return Err(UpstreamError::Timeout(format!(
                        "task {task} had not finished"
                    )))
                }
                _ => tokio::time::sleep(std::time::Duration::from_millis(10)).await,
            }
        }
    }

    async fn get_task(&self, task: &TaskHref) -> Result<TaskReport, UpstreamError> {
        let _call = self.enter(format!("get_task {task}")).await;
        self.lock().task_report(task)
    }

    async fn sync(&self, id: &RepoId, remote: &RemoteHref) -> Result<TaskHref, UpstreamError> {
        let _call = self.enter(format!("sync {id} {remote}")).await;
        let mut state = self.lock();
        state.repo(id)?;
        let script =
            state.remotes.get(remote).cloned().ok_or_else(|| {
                bad_request("remote", "Invalid hyperlink - Object does not exist.")
            })?;
        let duration = match &script {
            super::SyncScript::Succeeds { duration, .. }
            | super::SyncScript::Fails { duration, .. } => *duration,
        };
        Ok(state.start_task(
            duration,
            Effect::Sync {
                repo: id.clone(),
                script,
            },
            Some(id.clone()),
        ))
    }

    async fn latest_sync_tasks(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError> {
        let _call = self.enter(format!("latest_sync_tasks {}", ids.len())).await;
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
            .map(|(repo, (_, href))| state.task_report(&href).map(|report| (repo, report)))
            .collect()
    }
}
