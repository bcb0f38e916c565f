//! Finding production upstream: which distributions to read, and the publications they
//! serve. Bounded: the configured distributions are read by name (the cost does not grow
//! with Pulp); all of them only when some repository has none configured (the spec's rule
//! looks at every one; the adapter reads them in few, concurrent calls). Publications
//! never change, so the adapter reads each one once.

use std::collections::HashMap;

use futures::future::join_all;

use crate::domain::{Distribution, Publication, PublicationHref};
use crate::ports::{RepositoryManager, UpstreamError};

/// The distributions with these names, or every distribution when `names` is `None` (some
/// repository has no configured production).
pub async fn distributions_for(
    upstream: &dyn RepositoryManager,
    names: Option<Vec<String>>,
) -> Result<Vec<Distribution>, UpstreamError> {
    match names {
        Some(mut names) if !names.is_empty() => {
            names.sort();
            names.dedup();
            upstream.distributions_named(&names).await
        }
        _ => upstream.list_distributions().await,
    }
}

/// The distributions production may be, read before the repository's name is known: the
/// configured ones, or every distribution when none is configured.
pub async fn production_candidates(
    upstream: &dyn RepositoryManager,
    production: &HashMap<String, String>,
) -> Result<Vec<Distribution>, UpstreamError> {
    let names = (!production.is_empty()).then(|| production.values().cloned().collect());
    distributions_for(upstream, names).await
}

/// The publications these distributions serve, by href. When they cannot be read together
/// they are read one by one, and one that still fails is absent (that distribution is then
/// skipped, as the spec says).
pub async fn served_publications(
    upstream: &dyn RepositoryManager,
    distributions: &[Distribution],
) -> HashMap<PublicationHref, Publication> {
    let hrefs: Vec<PublicationHref> = distributions
        .iter()
        .filter_map(|d| d.publication.clone())
        .collect();
    if hrefs.is_empty() {
        return HashMap::new();
    }
    let found = match upstream.publications(&hrefs).await {
        Ok(found) => found,
        Err(error) => {
            tracing::warn!(%error, "reading publications together failed; reading them one by one");
            let each = join_all(hrefs.iter().map(|h| upstream.get_publication(h))).await;
            each.into_iter().flatten().collect()
        }
    };
    found.into_iter().map(|p| (p.href.clone(), p)).collect()
}
