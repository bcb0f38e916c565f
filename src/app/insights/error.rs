//! Why the insights gave no figures: a filter that is not one, or a store or Pulp that
//! could not be read.

use crate::ports::{AuditReadError, UpstreamError};

/// Why no figures were given.
#[derive(Debug, thiserror::Error)]
pub enum InsightsError {
    #[error("no repository is named or numbered '{0}' in Pulp: check the name (or use its UUID)")]
    UnknownRepository(String),
    #[error("no release is named '{0}': the releases are those the configuration lists")]
    UnknownRelease(String),
    #[error("no environment is named '{0}': the environments are those of the path")]
    UnknownEnvironment(String),
    #[error("{0}")]
    BadFilter(String),
    #[error(transparent)]
    Audit(AuditReadError),
    #[error(transparent)]
    Upstream(UpstreamError),
    #[error("the requests or checks could not be read: {0}")]
    Store(String),
}
