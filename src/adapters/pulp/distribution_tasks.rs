//! Pulp's record of the changes of a distribution: the tasks that reserved it
//! (`tasks/?reserved_resources=<the plugin's distribution prn><uuid>`, newest first), one page,
//! and the names of the users who asked for them (one `users/` call when a task names a
//! user not seen before; their hrefs are shown when the console may not list users). One
//! call, two when a new user appears, whatever the length of the history.

use chrono::{DateTime, Utc};
use serde::Deserialize;

use super::dto::{task_state, PageDto};
use super::plugins::plugin_of_href;
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::adapters::pulp::transport::memo::Memo;
use crate::domain::repository::{ChangeState, DistributionChange, DistributionHref, TaskHref};
use crate::ports::UpstreamError;

const CHANGE_FIELDS: &str = "pulp_href,pulp_created,state,created_by,logging_cid";
/// Users named at most (one page); others are shown by their href.
const USERS_PAGE: &str = "100";

#[derive(Debug, Deserialize)]
struct ChangeTaskDto {
    pulp_href: String,
    pulp_created: DateTime<Utc>,
    state: String,
    created_by: Option<String>,
    logging_cid: Option<String>,
}

#[derive(Debug, Deserialize)]
struct UserDto {
    pulp_href: String,
    username: String,
}

impl PulpClient {
    pub(super) async fn changes_of(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Result<Vec<DistributionChange>, UpstreamError> {
        let uuid = distribution_uuid(distribution).ok_or_else(|| {
            UpstreamError::BadResponse(format!("'{distribution}' is not a distribution's href"))
                .logged()
        })?;
        let url = with_query(
            &self.url_for("tasks/")?,
            &[
                (
                    "reserved_resources",
                    &format!(
                        "{}{uuid}",
                        plugin_of_href(distribution.as_str()).distribution_prn
                    ),
                ),
                ("ordering", "-pulp_created"),
                ("fields", CHANGE_FIELDS),
                ("limit", &limit.max(1).to_string()),
            ],
        );
        let tasks = self.get_json::<PageDto<ChangeTaskDto>>(&url).await?.results;
        let creators = tasks.iter().filter_map(|t| t.created_by.clone());
        let unknown = self.users.split(creators).1;
        if !unknown.is_empty() {
            self.learn_user_names().await;
            // Not listed (no permission, or past the first page): named by href from now on,
            // so that they are not asked for at every read.
            for href in unknown.into_iter().filter(|h| self.users.get(h).is_none()) {
                self.users.remember(href.clone(), href);
            }
        }
        Ok(tasks
            .into_iter()
            .map(|task| change(task, &self.users))
            .collect())
    }

    /// Remembers the username of each user href (one call); nothing when users cannot be
    /// listed (not an admin): tasks then name their user by href.
    async fn learn_user_names(&self) {
        let url = match self.url_for("users/") {
            Ok(url) => with_query(
                &url,
                &[("fields", "pulp_href,username"), ("limit", USERS_PAGE)],
            ),
            Err(_) => return,
        };
        match self.get_json::<PageDto<UserDto>>(&url).await {
            Ok(page) => page
                .results
                .into_iter()
                .for_each(|u| self.users.remember(u.pulp_href, u.username)),
            Err(error) => {
                tracing::info!(%error, "Pulp users not listed: tasks name their user by href");
            }
        }
    }
}

fn change(task: ChangeTaskDto, users: &Memo<String, String>) -> DistributionChange {
    let by = match task.created_by {
        Some(href) => users.get(&href).unwrap_or(href),
        None => "unknown".to_owned(),
    };
    DistributionChange {
        at: task.pulp_created,
        by,
        task: TaskHref::new(task.pulp_href),
        correlation: task.logging_cid.filter(|c| !c.is_empty()),
        state: task_state(&task.state).map_or(ChangeState::Unfinished, ChangeState::from),
    }
}

/// The last path segment of `/pulp/api/v3/distributions/rpm/rpm/<uuid>/`.
fn distribution_uuid(href: &DistributionHref) -> Option<&str> {
    let uuid = href.as_str().trim_end_matches('/').rsplit('/').next()?;
    uuid::Uuid::parse_str(uuid).is_ok().then_some(uuid)
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroUsize;

    use super::*;

    #[test]
    fn the_uuid_of_a_distribution_href_names_its_prn() {
        let href = DistributionHref::new(
            "/pulp/api/v3/distributions/rpm/rpm/01a20a42-5ad9-743a-bdf6-6ba809919bee/",
        );
        assert_eq!(
            distribution_uuid(&href),
            Some("01a20a42-5ad9-743a-bdf6-6ba809919bee")
        );
        assert_eq!(distribution_uuid(&DistributionHref::new("/d/")), None);
    }

    #[test]
    fn a_task_reads_as_a_change_by_a_named_user() {
        let task: ChangeTaskDto = serde_json::from_value(serde_json::json!({
            "pulp_href": "/pulp/api/v3/tasks/t/", "pulp_created": "2026-11-23T21:55:02.870592Z",
            "state": "completed", "created_by": "/pulp/api/v3/users/1/",
            "logging_cid": "232f9516682440b8b052e41616cfacbd"
        }))
        .unwrap();
        let users = Memo::new(NonZeroUsize::MIN);
        users.remember("/pulp/api/v3/users/1/".to_owned(), "admin".to_owned());
        let change = change(task, &users);
        assert_eq!(change.by, "admin");
        assert_eq!(change.state, ChangeState::Completed);
        assert_eq!(
            change.correlation.as_deref(),
            Some("232f9516682440b8b052e41616cfacbd")
        );
    }
}
