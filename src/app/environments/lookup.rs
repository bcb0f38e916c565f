//! Finding the environments' distributions upstream, and the publications they serve.
//! Bounded: every environment's distribution is read by name in one call (the cost does not
//! grow with Pulp); all of them only when the console was configured without environments
//! and some repository has no production named (the spec's rule looks at every one; the
//! adapter reads them in few, concurrent calls). Publications never change, so the adapter
//! reads each one once.

use std::collections::{BTreeSet, HashMap};

use futures::future::join_all;

use crate::domain::deploy::{production_state, ProductionState, Refusal};
use crate::domain::environment::{Environment, EnvironmentName, EnvironmentPath};
use crate::domain::repository::{Distribution, Publication, PublicationHref, RepoId, Repository};
use crate::ports::{RepositoryManager, UpstreamError};

/// How an environment's distribution is found for one repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Naming {
    /// By this name (configured explicitly, or by the environment's pattern).
    Named(String),
    /// The spec's rule: the distribution that serves a version of the repository now (a
    /// console configured without environments, for a repository `[production]` does not
    /// name).
    Detect,
    /// The environment names no distribution for this repository: it has none there.
    Unnamed,
}

impl Naming {
    /// The environment `environment` of repository `repo` found this way among
    /// `distributions`, with what it serves (`publications`: what they serve, by href).
    pub fn state(
        self,
        environment: &EnvironmentName,
        repo: &RepoId,
        distributions: &[Distribution],
        publications: &HashMap<PublicationHref, Publication>,
    ) -> ProductionState {
        match self {
            Self::Named(name) => production_state(repo, Some(&name), distributions, publications),
            Self::Detect => production_state(repo, None, distributions, publications),
            Self::Unnamed => ProductionState {
                target: Err(Refusal::NoEnvironmentDistribution(environment.clone())),
                deployed: None,
            },
        }
    }
}

/// Whether `state` is of an environment with no distribution for the repository: none
/// named, none found under the name configured, or none serving it (detection).
pub fn has_no_distribution(state: &ProductionState) -> bool {
    state.target.is_err()
}

/// How `environment` finds its distribution for `repo`.
pub fn naming(path: &EnvironmentPath, environment: &Environment, repo: &Repository) -> Naming {
    match environment.distribution_for(repo.display_name()) {
        Some(name) => Naming::Named(name),
        None if path.is_single() => Naming::Detect,
        None => Naming::Unnamed,
    }
}

/// Distributions read before (or with) the repository: by name, or every one.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    pub distributions: Vec<Distribution>,
    /// Every distribution was read.
    every: bool,
    /// The names asked for (found or not).
    names: BTreeSet<String>,
}

impl Candidates {
    /// Whether these candidates answer for `naming` (else more must be read).
    fn answer(&self, naming: &Naming) -> bool {
        match naming {
            Naming::Named(name) => self.every || self.names.contains(name),
            Naming::Detect => self.every,
            Naming::Unnamed => true,
        }
    }
}

/// The distributions the environments may be, read before the repository is (with its
/// name as last seen, `repo_name`, for the patterns): every name the path gives, in one
/// call; every distribution when the console has one environment naming none.
pub async fn candidates(
    upstream: &dyn RepositoryManager,
    path: &EnvironmentPath,
    repo_name: Option<&str>,
) -> Result<Candidates, UpstreamError> {
    let mut names = BTreeSet::new();
    for environment in path.iter() {
        names.extend(environment.naming.explicit().values().cloned());
        if let (Some(pattern), Some(repo)) = (environment.naming.pattern(), repo_name) {
            names.insert(pattern.apply(repo));
        }
    }
    if names.is_empty() && path.is_single() {
        let distributions = upstream.list_distributions().await?;
        return Ok(Candidates {
            distributions,
            every: true,
            names,
        });
    }
    let distributions = read_named(upstream, &names).await?;
    Ok(Candidates {
        distributions,
        every: false,
        names,
    })
}

/// `candidates` completed for these namings: the distributions a name needs that was not
/// asked for (a repository renamed, or seen for the first time), or every distribution
/// when one must be detected. At most one more call.
pub async fn complete(
    upstream: &dyn RepositoryManager,
    mut candidates: Candidates,
    namings: &[Naming],
) -> Result<Candidates, UpstreamError> {
    if namings.iter().all(|n| candidates.answer(n)) {
        return Ok(candidates);
    }
    if namings.contains(&Naming::Detect) {
        candidates.distributions = upstream.list_distributions().await?;
        candidates.every = true;
        return Ok(candidates);
    }
    let missing: BTreeSet<String> = namings
        .iter()
        .filter_map(|n| match n {
            Naming::Named(name) if !candidates.names.contains(name) => Some(name.clone()),
            _ => None,
        })
        .collect();
    candidates
        .distributions
        .extend(read_named(upstream, &missing).await?);
    candidates.names.extend(missing);
    Ok(candidates)
}

async fn read_named(
    upstream: &dyn RepositoryManager,
    names: &BTreeSet<String>,
) -> Result<Vec<Distribution>, UpstreamError> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let names: Vec<String> = names.iter().cloned().collect();
    upstream.distributions_named(&names).await
}

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

/// The publications these distributions serve, by href. When they cannot be read together
/// they are read one by one, and one that still fails is absent (that distribution is then
/// skipped, as the spec says).
pub async fn served_publications(
    upstream: &dyn RepositoryManager,
    distributions: &[Distribution],
) -> HashMap<PublicationHref, Publication> {
    let mut hrefs: Vec<PublicationHref> = distributions
        .iter()
        .filter_map(|d| d.publication.clone())
        .collect();
    hrefs.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    hrefs.dedup();
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
