//! The newest synchronization task of each of a set of repositories, in a bounded number
//! of calls: one query per batch of repositories (`q=reserved_resources="<prn>" OR …`,
//! newest first), reading pages only until every repository of the batch has been seen.
//! (On pulpcore 3.123 `reserved_resources__in=a,b` matches nothing, hence `q`.) Each plugin
//! names its own sync task and repository resources, so repositories are batched per plugin.

use std::collections::HashMap;

use futures::future::try_join_all;

use super::dto::{PageDto, TaskDto};
use super::manager::TASK_FIELDS;
use super::plugins::{repository_reserved, Plugin};
use super::PulpClient;
use crate::adapters::pulp::pagination::{next_path, with_query};
use crate::domain::repository::RepoId;
use crate::domain::sync::TaskReport;
use crate::ports::UpstreamError;

/// Repositories per query. Pulp caps a `q` expression's complexity at 8: each filter
/// counts 1 and a chain of ORs 1 more, so 7 repositories is the most one query may name
/// (8 is answered `400 q: Filter expression exceeds allowed complexity.`).
const REPOS_PER_QUERY: usize = 7;
/// Pulp's limit on the complexity of a `q` expression.
#[cfg(test)]
const MAX_Q_COMPLEXITY: usize = 8;
/// Pages read per query at most; repositories not seen by then count as never synced.
const PAGES_PER_QUERY: usize = 3;

impl PulpClient {
    pub(super) async fn newest_sync_tasks(
        &self,
        ids: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError> {
        let mut by_plugin: Vec<(&'static Plugin, Vec<RepoId>)> = Vec::new();
        for id in ids {
            let plugin = self.plugin_of_repo(id).await?;
            match by_plugin
                .iter_mut()
                .find(|(p, _)| p.content_type == plugin.content_type)
            {
                Some((_, of_plugin)) => of_plugin.push(id.clone()),
                None => by_plugin.push((plugin, vec![id.clone()])),
            }
        }
        let batches = by_plugin.iter().flat_map(|(plugin, ids)| {
            ids.chunks(REPOS_PER_QUERY)
                .map(|batch| self.newest_in_batch(plugin, batch))
        });
        let found = try_join_all(batches).await?;
        Ok(found.into_iter().flatten().collect())
    }

    async fn newest_in_batch(
        &self,
        plugin: &Plugin,
        batch: &[RepoId],
    ) -> Result<HashMap<RepoId, TaskReport>, UpstreamError> {
        let mut found = HashMap::new();
        let limit = self.settings.page_size.max(1).to_string();
        let mut url = with_query(
            &self.url_for("tasks/")?,
            &[
                ("name", plugin.sync_task),
                ("ordering", "-pulp_created"),
                ("q", &any_reserved(plugin, batch)),
                ("fields", TASK_FIELDS),
                ("limit", &limit),
            ],
        );
        for _ in 0..PAGES_PER_QUERY {
            let page: PageDto<TaskDto> = self.get_json(&url).await?;
            for task in page.results {
                let Some(id) = repository_of(&task.reserved_resources_record) else {
                    continue;
                };
                if batch.contains(&id) && !found.contains_key(&id) {
                    found.insert(id, task.into_domain()?);
                }
            }
            match page.next {
                Some(next) if found.len() < batch.len() => url = self.url_for(&next_path(&next))?,
                _ => break,
            }
        }
        Ok(found)
    }
}

/// `reserved_resources="prn:…:<a>" OR reserved_resources="prn:…:<b>" …`
fn any_reserved(plugin: &Plugin, ids: &[RepoId]) -> String {
    let prn = plugin.repository_prn;
    ids.iter()
        .map(|id| format!("reserved_resources=\"{prn}{id}\""))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The repository a task reserved (exclusively or shared).
fn repository_of(reserved: &[String]) -> Option<RepoId> {
    reserved
        .iter()
        .find_map(|r| RepoId::parse(repository_reserved(r)?.1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::pulp::plugins::RPM;

    const A: &str = "01a202df-8f9b-7bf1-b64c-ebcd5e57dca5";
    const B: &str = "01a202de-e818-7629-a483-70ecc3240361";

    #[test]
    fn one_query_asks_for_any_of_the_repositories() {
        let ids = [RepoId::parse(A).unwrap(), RepoId::parse(B).unwrap()];
        assert_eq!(
            any_reserved(&RPM, &ids),
            format!("reserved_resources=\"prn:rpm.rpmrepository:{A}\" OR reserved_resources=\"prn:rpm.rpmrepository:{B}\"")
        );
    }

    /// Pulp's rule: 1 per filter, plus 1 for a chain of ORs.
    fn complexity(q: &str) -> usize {
        let filters = q.matches("reserved_resources=").count();
        filters + usize::from(q.contains(" OR "))
    }

    #[test]
    fn a_query_stays_within_pulps_complexity_limit() {
        let ids: Vec<RepoId> = (0..50)
            .map(|i| RepoId::parse(&format!("01a202df-8f9b-7bf1-b64c-ebcd5e57{i:04x}")).unwrap())
            .collect();
        for batch in ids.chunks(REPOS_PER_QUERY) {
            let q = any_reserved(&RPM, batch);
            assert!(
                complexity(&q) <= MAX_Q_COMPLEXITY,
                "{} repositories: {q}",
                batch.len()
            );
        }
        assert_eq!(
            complexity(&any_reserved(&RPM, &ids[..8])),
            9,
            "8 would be refused"
        );
    }

    #[test]
    fn the_repository_of_a_task_is_read_from_its_reservations() {
        let reserved = vec![
            format!("prn:rpm.rpmrepository:{A}"),
            "shared:prn:rpm.rpmremote:01a202df-8ecc-7a2e-9f73-af9e4ada7eb3".to_owned(),
            "shared:prn:core.domain:c0893a67-c18e-45ec-9900-5e1a8dd0c8d3".to_owned(),
        ];
        assert_eq!(repository_of(&reserved), Some(RepoId::parse(A).unwrap()));
        assert_eq!(
            repository_of(&[format!("shared:prn:rpm.rpmrepository:{B}")]),
            Some(RepoId::parse(B).unwrap())
        );
        assert_eq!(repository_of(&["prn:core.domain:x".to_owned()]), None);
    }
}
