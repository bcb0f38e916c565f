//! Each error of a use case, as the web answers it: one `From` per error type, the status from
//! [`super::status`], the words from the error itself.

use crate::app::diffs::compare::CompareError;
use crate::app::facts::{ReadError, UnknownRepository};
use crate::ports::UpstreamError;

use super::errors::WebError;
use super::status;

impl From<UpstreamError> for WebError {
    fn from(error: UpstreamError) -> Self {
        Self::Rejected {
            status: status::upstream(&error),
            message: error.to_string(),
        }
    }
}

impl From<UnknownRepository> for WebError {
    fn from(unknown: UnknownRepository) -> Self {
        Self::NotFound(unknown.to_string())
    }
}

impl From<ReadError> for WebError {
    fn from(error: ReadError) -> Self {
        let status = status::read(&error);
        match error {
            ReadError::UnknownRepository(unknown) => unknown.into(),
            ReadError::Upstream(_) => Self::Rejected {
                status,
                message: error.to_string(),
            },
        }
    }
}

impl From<CompareError> for WebError {
    /// A version or repository Pulp does not have is not found; any other failure of Pulp
    /// answers its own status.
    fn from(error: CompareError) -> Self {
        match error {
            CompareError::Upstream(ref upstream) if !upstream.is_not_found() => Self::Rejected {
                status: status::upstream(upstream),
                message: error.to_string(),
            },
            error => Self::NotFound(error.to_string()),
        }
    }
}
