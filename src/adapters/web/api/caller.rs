//! Who calls the API: a bearer token, or the trusted proxy's identity (the
//! [`AppState::api_callers`] port). Reads need nobody; writes need a caller (401 without).

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::app::AppState;
use crate::domain::identity::Operator;

use super::super::identity::context_of_parts;
use super::super::status::Refused;
use super::error::ApiError;

/// The caller of a write.
pub struct Caller(pub Operator);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let Some(callers) = state.api_callers() else {
            return Err(ApiError::said(
                &Refused::Unidentified,
                "This console takes no API writes: configure [[api.tokens]] (or identity.header behind an authenticating proxy).",
            ));
        };
        let context = context_of_parts(parts);
        callers
            .identify(&context)
            .await
            .map(Caller)
            .map_err(|why| ApiError::said(&why, format!("Not identified: {why}.")))
    }
}
