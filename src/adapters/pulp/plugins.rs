//! Every path, type name and record name of a Pulp content plugin, in one table per content
//! type: pulp_rpm for [`ContentType::Rpm`], pulp_deb for [`ContentType::Deb`]. The rest of the
//! adapter asks this table (by content type, or by an href it was given) and names no plugin.
//! Measured on pulpcore 3.123.1 with pulp_rpm 3.39.4 and pulp_deb 3.11.1
//! (docs/src/developer/content-types.md).

use crate::domain::content::kind::ContentType;

/// One plugin's names, as Pulp's REST API spells them. Paths are relative to the API root.
#[derive(Debug)]
pub(super) struct Plugin {
    pub content_type: ContentType,
    /// The component `status/` lists when the plugin is installed.
    pub component: &'static str,
    /// The repository type, as the generic `repositories/?pulp_type__in=` filter names it.
    pub repository_type: &'static str,
    pub repositories: &'static str,
    pub publications: &'static str,
    pub distributions: &'static str,
    pub packages: &'static str,
    /// The fields of a package the console reads, in the plugin's names.
    pub package_fields: &'static str,
    /// The filter of packages by a list of names.
    pub package_names_filter: &'static str,
    /// The key of a version's `content_summary` that counts its packages.
    pub package_summary: &'static str,
    /// The name of the task that synchronizes a repository.
    pub sync_task: &'static str,
    /// The prefix of a repository's resource name (what its tasks reserve).
    pub repository_prn: &'static str,
    /// The prefix of a distribution's resource name.
    pub distribution_prn: &'static str,
}

/// pulp_rpm's advisories: the only plugin with them (whether a content type carries any is the
/// domain's rule, `ContentType::advisories`), read for diffs and by the exposure.
pub(super) const ADVISORIES: &str = "content/rpm/advisories/";

pub(super) const RPM: Plugin = Plugin {
    content_type: ContentType::Rpm,
    component: "rpm",
    repository_type: "rpm.rpm",
    repositories: "repositories/rpm/rpm/",
    publications: "publications/rpm/rpm/",
    distributions: "distributions/rpm/rpm/",
    packages: "content/rpm/packages/",
    package_fields: "name,epoch,version,release,arch",
    package_names_filter: "name__in",
    package_summary: "rpm.package",
    sync_task: "pulp_rpm.app.tasks.synchronizing.synchronize",
    repository_prn: "prn:rpm.rpmrepository:",
    distribution_prn: "prn:rpm.rpmdistribution:",
};

pub(super) const DEB: Plugin = Plugin {
    content_type: ContentType::Deb,
    component: "deb",
    repository_type: "deb.deb",
    repositories: "repositories/deb/apt/",
    publications: "publications/deb/apt/",
    distributions: "distributions/deb/apt/",
    packages: "content/deb/packages/",
    package_fields: "package,version,architecture",
    package_names_filter: "package__in",
    package_summary: "deb.package",
    sync_task: "pulp_deb.app.tasks.synchronizing.synchronize",
    repository_prn: "prn:deb.aptrepository:",
    distribution_prn: "prn:deb.aptdistribution:",
};

/// Every plugin the console knows, RPM first.
pub(super) const PLUGINS: [&Plugin; 2] = [&RPM, &DEB];

/// The plugin of a content type.
pub(super) fn plugin(content_type: ContentType) -> &'static Plugin {
    match content_type {
        ContentType::Rpm => &RPM,
        ContentType::Deb => &DEB,
    }
}

/// The plugin whose repository, publication or distribution `href` is (by the path after the
/// API root), if any.
pub(super) fn plugin_of(href: &str) -> Option<&'static Plugin> {
    PLUGINS.into_iter().find(|p| {
        [p.repositories, p.publications, p.distributions]
            .iter()
            .any(|path| href.contains(&format!("/{path}")))
    })
}

/// The plugin of an href the console was given (a version, publication or distribution),
/// RPM when the href names none (the in-memory upstream's and old records' addresses).
pub(super) fn plugin_of_href(href: &str) -> &'static Plugin {
    plugin_of(href).unwrap_or(&RPM)
}

/// The plugin of a resource name a task reserved (`[shared:]prn:<plugin>.<type>:<uuid>`), with
/// the uuid, when it names a repository.
pub(super) fn repository_reserved(reserved: &str) -> Option<(&'static Plugin, &str)> {
    let prn = reserved.strip_prefix("shared:").unwrap_or(reserved);
    PLUGINS
        .into_iter()
        .find_map(|p| Some((p, prn.strip_prefix(p.repository_prn)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_content_type_has_its_own_plugin() {
        for t in ContentType::ALL {
            assert_eq!(plugin(t).content_type, t);
        }
        assert_eq!(PLUGINS.len(), ContentType::ALL.len());
    }

    #[test]
    fn an_href_tells_its_plugin_whatever_the_api_root() {
        for (href, expected) in [
            (
                "/pulp/api/v3/repositories/rpm/rpm/01a2/versions/3/",
                Some(ContentType::Rpm),
            ),
            (
                "/pulp/default/api/v3/repositories/deb/apt/01a2/",
                Some(ContentType::Deb),
            ),
            (
                "/pulp/api/v3/publications/deb/apt/01a2/",
                Some(ContentType::Deb),
            ),
            (
                "/pulp/api/v3/distributions/rpm/rpm/01a2/",
                Some(ContentType::Rpm),
            ),
            ("/pulp/api/v3/repositories/file/file/01a2/", None),
            ("/pulp/api/v3/tasks/01a2/", None),
        ] {
            assert_eq!(plugin_of(href).map(|p| p.content_type), expected, "{href}");
        }
    }

    #[test]
    fn a_reserved_repository_names_its_plugin_and_uuid() {
        let (p, uuid) = repository_reserved("shared:prn:deb.aptrepository:01a2").unwrap();
        assert_eq!((p.content_type, uuid), (ContentType::Deb, "01a2"));
        let (p, _) = repository_reserved("prn:rpm.rpmrepository:01a3").unwrap();
        assert_eq!(p.content_type, ContentType::Rpm);
        assert!(repository_reserved("prn:rpm.rpmremote:01a3").is_none());
    }
}
