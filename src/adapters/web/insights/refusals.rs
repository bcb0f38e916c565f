//! How the insights' refusals answer: a filter that names nothing known, or a range that is
//! not one, is the asker's mistake (400, `bad_filter`); an unknown repository is not found
//! (404); a store or Pulp that cannot be read answers its own status.

use axum::http::StatusCode;

use crate::app::insights::InsightsError;

use super::super::feature::FeatureRefusal;
use super::super::status::HttpStatus;

impl FeatureRefusal for InsightsError {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownRepository(_) => StatusCode::NOT_FOUND,
            Self::UnknownRelease(_) | Self::UnknownEnvironment(_) | Self::BadFilter(_) => {
                StatusCode::BAD_REQUEST
            }
            Self::Audit(error) => error.status(),
            Self::Upstream(error) => error.status(),
            Self::Store(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    fn code(&self) -> Option<&'static str> {
        match self {
            Self::UnknownRelease(_) | Self::UnknownEnvironment(_) | Self::BadFilter(_) => {
                Some("bad_filter")
            }
            Self::UnknownRepository(_) | Self::Audit(_) | Self::Upstream(_) | Self::Store(_) => {
                None
            }
        }
    }
}
