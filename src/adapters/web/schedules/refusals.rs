//! How the schedules' refusals answer: each status by a match naming every variant, and the
//! JSON code (the general word of the status: `not_found`, `forbidden`, `conflict`...).

use axum::http::StatusCode;

use crate::app::schedules::cancel::NotCancelled;

use super::super::feature::FeatureRefusal;
use super::super::status::HttpStatus;

/// A schedule not cancelled: an unknown one is not found; the schedule's rules and its store
/// answer their own status.
impl FeatureRefusal for NotCancelled {
    fn status(&self) -> StatusCode {
        match self {
            Self::Unknown(_) => StatusCode::NOT_FOUND,
            Self::Refused(refusal) => refusal.status(),
            Self::Store(problem) => problem.status(),
        }
    }

    fn code(&self) -> Option<&'static str> {
        match self {
            Self::Unknown(_) | Self::Refused(_) | Self::Store(_) => None,
        }
    }
}
