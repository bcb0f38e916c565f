//! What an exposure question is answered with: a row per repository and environment, the
//! advisories judged, and the counts of each environment.

use chrono::{DateTime, Utc};

use crate::domain::diff::Package;
use crate::domain::environment::EnvironmentName;
use crate::domain::exposure::{count_states, ExposureQuery, ExposureState};
use crate::domain::repository::{RepoId, VersionNumber};

/// One cell: an environment of a repository.
#[derive(Debug, Clone)]
pub struct ExposureRow {
    pub repository: String,
    pub repository_uuid: RepoId,
    pub environment: EnvironmentName,
    /// The version it serves (`None`: nothing of the repository, or not known).
    pub version: Option<VersionNumber>,
    pub state: ExposureState,
    /// The newest build of each name and arch judged (what dnf would install).
    pub packages: Vec<Package>,
    /// Older builds of the same names still served (listed, not judged).
    pub older_builds_served: Vec<Package>,
    /// Why the state is `unknown`: what could not be read, and what to check.
    pub reason: Option<String>,
    /// An affected cell: the oldest newer version of the repository that is fixed, among the
    /// versions its environments serve and its latest.
    pub fixed_in: Option<VersionNumber>,
}

/// The CVE index an answer was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexFacts {
    /// Advisory units indexed.
    pub advisories: usize,
    pub refreshed: Option<DateTime<Utc>>,
}

/// The whole answer.
#[derive(Debug, Clone)]
pub struct ExposureAnswer {
    pub query: ExposureQuery,
    /// The advisories judged (an advisory question: that one; a CVE: every one naming it).
    pub advisories: Vec<String>,
    /// The environments, in path order.
    pub environments: Vec<EnvironmentName>,
    /// By repository name, then environment in path order.
    pub rows: Vec<ExposureRow>,
    /// A CVE question: the index it was answered from.
    pub index: Option<IndexFacts>,
}

impl ExposureAnswer {
    /// Each environment with its cells counted by state, in path order.
    pub fn summary(&self) -> Vec<(EnvironmentName, Vec<(ExposureState, usize)>)> {
        self.environments
            .iter()
            .map(|environment| {
                let states = self
                    .rows
                    .iter()
                    .filter(|r| &r.environment == environment)
                    .map(|r| r.state);
                (environment.clone(), count_states(states))
            })
            .collect()
    }
}
