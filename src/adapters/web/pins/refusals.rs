//! How an unpin's refusals answer: each status by a match naming every variant, and the JSON
//! code.

use axum::http::StatusCode;

use crate::app::pins::unpin::NotUnpinned;
use crate::ports::PinStoreError;

use super::super::feature::FeatureRefusal;
use super::super::status::HttpStatus;

/// An unpin refused: an unknown environment is not found, someone who may not deploy there
/// is forbidden, a missing reason is unprocessable, an environment not pinned is a conflict
/// (`not_pinned`), a pin store that cannot be read or written is unavailable.
impl FeatureRefusal for NotUnpinned {
    fn status(&self) -> StatusCode {
        match self {
            Self::UnknownEnvironment(_) => StatusCode::NOT_FOUND,
            Self::NotAllowed { .. } => StatusCode::FORBIDDEN,
            Self::Reason(refusal) => refusal.status(),
            Self::NotPinned(_) => StatusCode::CONFLICT,
            Self::Store(PinStoreError::Unavailable { .. } | PinStoreError::Unreadable(_)) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }

    fn code(&self) -> Option<&'static str> {
        match self {
            Self::UnknownEnvironment(_) => Some("unknown_environment"),
            Self::NotAllowed { .. } => None,
            Self::Reason(_) => Some("reason_missing"),
            Self::NotPinned(_) => Some("not_pinned"),
            Self::Store(_) => None,
        }
    }
}
