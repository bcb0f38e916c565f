//! Reading what differs between two versions from upstream, by the cheapest exact reads
//! (planned by [`plan_diff_reads`]): the one-sided packages and advisories at once, then
//! the builds the new version holds of the names that differ, so that the newest build on
//! each side is judged among all of them.

use crate::domain::{
    plan_diff_reads, ContentDifference, ContentRead, DiffEnd, PackageDifference, VersionHref,
};
use crate::ports::{ContentCatalog, UpstreamError};

/// An end whose count of this content is not known.
fn uncounted(end: DiffEnd<'_>) -> DiffEnd<'_> {
    DiffEnd {
        href: end.href,
        count: None,
    }
}

/// The difference from `from` (none: nothing) to `to`. The counts in the ends are package
/// counts; advisories are planned knowing only that a version 0 is empty.
pub async fn read_difference(
    catalog: &dyn ContentCatalog,
    from: Option<DiffEnd<'_>>,
    to: DiffEnd<'_>,
) -> Result<ContentDifference, UpstreamError> {
    let packages = plan_diff_reads(from, to);
    let advisories = plan_diff_reads(from.map(uncounted), uncounted(to));
    let read_packages = |side: &Option<(VersionHref, ContentRead)>| {
        let side = side.clone();
        async move {
            match side {
                Some((version, read)) => catalog.packages(&version, &read).await,
                None => Ok(Vec::new()),
            }
        }
    };
    let read_advisories = |side: &Option<(VersionHref, ContentRead)>| {
        let side = side.clone();
        async move {
            match side {
                Some((version, read)) => catalog.advisories(&version, &read).await,
                None => Ok(Vec::new()),
            }
        }
    };
    let packages_read = async {
        let (only_new, only_old) = futures::try_join!(
            read_packages(&packages.only_new),
            read_packages(&packages.only_old)
        )?;
        let touched = PackageDifference::touched_names(&only_new, &only_old);
        let new_builds = match &packages.shared_from {
            Some(version) if !touched.is_empty() => {
                catalog.package_builds(version, &touched).await?
            }
            _ => Vec::new(),
        };
        Ok::<_, UpstreamError>(PackageDifference::from_new_builds(
            only_new, only_old, new_builds,
        ))
    };
    let (packages, advisories_only_new, advisories_only_old) = futures::try_join!(
        packages_read,
        read_advisories(&advisories.only_new),
        read_advisories(&advisories.only_old),
    )?;
    Ok(ContentDifference {
        packages,
        advisories_only_new,
        advisories_only_old,
    })
}
