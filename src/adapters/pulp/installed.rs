//! Which content plugins this Pulp has (read once from `status/`, whose `versions` list names
//! each installed component), and which plugin serves a repository known only by its id.
//!
//! A Pulp with pulp_rpm alone is read exactly as before Debian support: one typed call per
//! read. Where several plugins are installed, a repository's type is learned from any read
//! that returned it (remembered), or else from the generic `repositories/?pulp_id__in=` list.

use serde::Deserialize;

use super::dto::PageDto;
use super::plugins::{plugin, plugin_of, Plugin, PLUGINS, RPM};
use super::PulpClient;
use crate::adapters::pulp::pagination::with_query;
use crate::domain::content::kind::ContentType;
use crate::domain::repository::{RepoId, Repository};
use crate::ports::UpstreamError;

#[derive(Debug, Deserialize)]
struct StatusDto {
    #[serde(default)]
    versions: Vec<ComponentDto>,
}

#[derive(Debug, Deserialize)]
struct ComponentDto {
    component: String,
}

#[derive(Debug, Deserialize)]
struct HrefDto {
    pulp_href: String,
}

/// The console's plugins among the components a Pulp lists, RPM first. A Pulp that lists
/// none of them (an old or unusual server) is read as RPM, as the console always read it.
fn known_plugins(components: &[ComponentDto]) -> Vec<ContentType> {
    let found: Vec<ContentType> = PLUGINS
        .into_iter()
        .filter(|p| components.iter().any(|c| c.component == p.component))
        .map(|p| p.content_type)
        .collect();
    if found.is_empty() {
        vec![ContentType::Rpm]
    } else {
        found
    }
}

impl PulpClient {
    /// The plugins of the console's content types that this Pulp has (read once).
    pub(super) async fn installed(&self) -> Result<Vec<&'static Plugin>, UpstreamError> {
        let types = self
            .plugins_installed
            .get_or_try_init(|| async {
                let status: StatusDto = self.get_json(&self.url_for("status/")?).await?;
                Ok::<_, UpstreamError>(known_plugins(&status.versions))
            })
            .await?;
        Ok(types.iter().map(|t| plugin(*t)).collect())
    }

    /// Remembers the content type of repositories just read, so that reading one again by id
    /// costs no extra call.
    pub(super) fn learn_types<'a>(&self, repos: impl IntoIterator<Item = &'a Repository>) {
        for repo in repos {
            self.repo_types
                .remember(repo.id.clone(), repo.content_type());
        }
    }

    /// The plugin that serves repository `id`: the only one installed, the one remembered, or
    /// the one the generic repository list names. One look-up at a time, so that the reads of
    /// one page that all need it make one call. A repository the list does not name is asked
    /// of pulp_rpm, whose 404 then says, in Pulp's words, that it has none.
    pub(super) async fn plugin_of_repo(
        &self,
        id: &RepoId,
    ) -> Result<&'static Plugin, UpstreamError> {
        let installed = self.installed().await?;
        if let [only] = installed.as_slice() {
            return Ok(only);
        }
        if let Some(known) = self.repo_types.get(id) {
            return Ok(plugin(known));
        }
        let _one_at_a_time = self.type_lookup.lock().await;
        if let Some(known) = self.repo_types.get(id) {
            return Ok(plugin(known));
        }
        let url = with_query(
            &self.url_for("repositories/")?,
            &[("pulp_id__in", id.as_str()), ("fields", "pulp_href")],
        );
        let found: PageDto<HrefDto> = self.get_json(&url).await?;
        match found.results.iter().find_map(|r| plugin_of(&r.pulp_href)) {
            Some(found) => {
                self.repo_types.remember(id.clone(), found.content_type);
                Ok(found)
            }
            None => Ok(&RPM),
        }
    }

    /// The href of a repository: `{api_root}api/v3/<its plugin's repositories>/<uuid>/`.
    pub(super) async fn repo_href(&self, id: &RepoId) -> Result<String, UpstreamError> {
        let plugin = self.plugin_of_repo(id).await?;
        Ok(format!(
            "{}{}{}/",
            self.settings.api_path(),
            plugin.repositories,
            id.as_str()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn components(names: &[&str]) -> Vec<ComponentDto> {
        names
            .iter()
            .map(|n| ComponentDto {
                component: (*n).to_owned(),
            })
            .collect()
    }

    #[test]
    fn the_plugins_are_those_status_lists_and_rpm_when_it_lists_none() {
        use ContentType::{Deb, Rpm};
        assert_eq!(known_plugins(&components(&["core", "rpm"])), [Rpm]);
        assert_eq!(
            known_plugins(&components(&["core", "deb", "rpm"])),
            [Rpm, Deb]
        );
        assert_eq!(known_plugins(&components(&["core", "deb"])), [Deb]);
        assert_eq!(known_plugins(&components(&["core", "file"])), [Rpm]);
        assert_eq!(known_plugins(&[]), [Rpm]);
    }
}
