//! Reading what differs between two versions from upstream, by the cheapest exact reads
//! (planned by [`plan_diff_reads`]): the one-sided packages and advisories at once (listed,
//! or composed from the changes of the versions in between), then the builds the new
//! version holds of the names that differ, so that the newest build on each side is judged
//! among all of them. Advisories are read only where the repository's type carries them;
//! for another type the difference says they do not apply, and no advisory is asked.

use std::hash::Hash;

use futures::future::BoxFuture;
use futures::{FutureExt, StreamExt, TryStreamExt};

use crate::domain::content::kind::ContentType;
use crate::domain::content::Advisories;
use crate::domain::diff::{
    compose_steps, filtered_reads, plan_diff_reads, AdvisorySides, ContentDifference, ContentRead,
    DiffEnd, DiffReads, PackageDifference, SideReads,
};
use crate::domain::repository::VersionHref;
use crate::ports::{ContentCatalog, UpstreamError};

/// Step reads (each a version's added or removed units) in flight at once.
const STEPS_IN_FLIGHT: usize = 4;

/// The difference from `from` (none: nothing) to `to`. The counts in the ends are package
/// counts. Both kinds of content follow the same plan: the filter's cost grows with all the
/// content of the two versions, which the package count stands for. A composed plan whose
/// versions in between cannot be read (one was deleted: Pulp then refuses its href) is read
/// again with the filter.
pub async fn read_difference(
    catalog: &dyn ContentCatalog,
    content_type: ContentType,
    from: Option<DiffEnd<'_>>,
    to: DiffEnd<'_>,
) -> Result<ContentDifference, UpstreamError> {
    let plan = plan_diff_reads(from, to);
    match (read_by_plan(catalog, content_type, &plan).await, from) {
        (Err(error), Some(from))
            if error.proves_refusal() && matches!(plan.sides, SideReads::Composed { .. }) =>
        {
            tracing::info!(%error, "a version between the two could not be read; using Pulp's filter");
            read_by_plan(catalog, content_type, &filtered_reads(from, to)).await
        }
        (read, _) => read,
    }
}

/// The difference the reads of `plan` give for versions of `content_type` (tests compare
/// plans with it).
pub async fn read_by_plan(
    catalog: &dyn ContentCatalog,
    content_type: ContentType,
    plan: &DiffReads,
) -> Result<ContentDifference, UpstreamError> {
    let packages_read = async {
        let (only_new, only_old) = sides(&plan.sides, |version, how| {
            async move { catalog.packages(&version, &how).await }.boxed()
        })
        .await?;
        let touched = PackageDifference::touched_names(&only_new, &only_old);
        let new_builds = match &plan.shared_from {
            Some(version) if !touched.is_empty() => {
                catalog.package_builds(version, &touched).await?
            }
            _ => Vec::new(),
        };
        Ok::<_, UpstreamError>(PackageDifference::from_new_builds(
            only_new, only_old, new_builds,
        ))
    };
    let advisories_read = async {
        match content_type.advisories() {
            Advisories::NotApplicable(t) => Ok(Advisories::NotApplicable(t)),
            Advisories::Carried(()) => {
                let (only_new, only_old) = sides(&plan.sides, |version, how| {
                    async move { catalog.advisories(&version, &how).await }.boxed()
                })
                .await?;
                Ok(Advisories::Carried(AdvisorySides { only_new, only_old }))
            }
        }
    };
    let (packages, advisories) = futures::try_join!(packages_read, advisories_read)?;
    Ok(ContentDifference {
        packages,
        advisories,
    })
}

/// `(only in the new version, only in the old one)` of the content `read` reads.
async fn sides<'a, T, R>(plan: &SideReads, read: R) -> Result<(Vec<T>, Vec<T>), UpstreamError>
where
    T: Eq + Hash + Clone + Send + 'a,
    R: Fn(VersionHref, ContentRead) -> BoxFuture<'a, Result<Vec<T>, UpstreamError>>,
{
    match plan {
        SideReads::Listed { only_new, only_old } => {
            let one = |side: &Option<(VersionHref, ContentRead)>| match side {
                Some((version, how)) => read(version.clone(), how.clone()),
                None => futures::future::ready(Ok(Vec::new())).boxed(),
            };
            let (new, old) = (one(only_new), one(only_old));
            futures::try_join!(new, old)
        }
        SideReads::Composed { steps, backwards } => {
            let reads: Vec<_> = steps
                .iter()
                .flat_map(|version| {
                    [ContentRead::Added, ContentRead::Removed].map(|how| read(version.clone(), how))
                })
                .collect();
            let answers: Vec<Vec<T>> = futures::stream::iter(reads)
                .buffered(STEPS_IN_FLIGHT)
                .try_collect()
                .await?;
            let mut answers = answers.into_iter();
            let pairs = std::iter::from_fn(|| Some((answers.next()?, answers.next()?)));
            let (later, earlier) = compose_steps(pairs);
            Ok(if *backwards {
                (earlier, later)
            } else {
                (later, earlier)
            })
        }
    }
}
