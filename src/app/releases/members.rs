//! The members of a release as Pulp has them: one filtered read per member, at once.

use futures::future::try_join_all;

use crate::domain::release::Release;
use crate::domain::repository::Repository;
use crate::ports::{RepositoryManager, UpstreamError};

/// A member Pulp has.
#[derive(Debug, Clone)]
pub struct Member {
    /// The name the release lists it by.
    pub name: String,
    pub repo: Repository,
}

/// The members of a release, in its order, and those Pulp has no repository for.
#[derive(Debug, Clone)]
pub struct Members {
    pub found: Vec<Member>,
    pub missing: Vec<String>,
}

/// Every member of `release`, read by name through `upstream` (one call per member, all at
/// once, whatever Pulp holds).
pub async fn members_of(
    upstream: &dyn RepositoryManager,
    release: &Release,
) -> Result<Members, UpstreamError> {
    let reads = release.members().iter().map(|name| async move {
        Ok::<_, UpstreamError>((name.clone(), upstream.repo_named(name).await?))
    });
    let mut members = Members {
        found: Vec::new(),
        missing: Vec::new(),
    };
    for (name, repo) in try_join_all(reads).await? {
        match repo {
            Some(repo) => members.found.push(Member { name, repo }),
            None => members.missing.push(name),
        }
    }
    Ok(members)
}
