//! A failure the HTML pages answer: its kind, its status ([`super::status`] gives the
//! status of its cause) and its words. Its renderer, a readable page or a fragment when htmx
//! asked, is [`super::views::error_page`] (the JSON renderer is [`super::api::ApiError`]). The
//! cause is logged once, in the request's line: it travels in the response as a [`Refusal`].

use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::app::diffs::compare::CompareError;
use crate::app::exposure::ExposureError;
use crate::app::facts::{ReadError, UnknownRepository};
use crate::domain::exposure::BadExposureQuery;
use crate::ports::UpstreamError;

use super::feature::FeatureRefusal;
use super::refusal_note::Refusal;
use super::status::{HttpStatus, Refused};

#[derive(Debug, Clone, thiserror::Error)]
pub enum WebError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A request refused with this status: its cause's ([`WebError::of`]), the edge's own
    /// (403, 408, 413, 415, 421) or an extractor's ([`WebError::rejected`]).
    #[error("{message}")]
    Rejected { status: StatusCode, message: String },
}

/// Each error a handler passes on with `?`: its status, its words.
macro_rules! web_error_from {
    ($($cause:ty),*) => {$(
        impl From<$cause> for WebError {
            fn from(cause: $cause) -> Self {
                Self::of(&cause)
            }
        }
    )*};
}

web_error_from!(
    UpstreamError,
    UnknownRepository,
    ReadError,
    CompareError,
    ExposureError,
    BadExposureQuery
);

/// A feature's refusal (see [`super::feature`]): its status, its words.
impl<R: FeatureRefusal> From<R> for WebError {
    fn from(refusal: R) -> Self {
        Self::of(&refusal)
    }
}

impl WebError {
    /// A failure, with the status of its cause and the cause's own words.
    pub fn of(cause: &(impl HttpStatus + std::fmt::Display)) -> Self {
        Self::said(cause, cause.to_string())
    }

    /// A failure with the status of its cause, said in `message`.
    pub fn said(cause: &impl HttpStatus, message: String) -> Self {
        Self::Rejected {
            status: cause.status(),
            message,
        }
    }

    /// From one of axum's extractor rejections, keeping its status (400, 413, 415…).
    pub fn rejected(rejection: impl IntoResponse + std::fmt::Display) -> Self {
        let message = rejection.to_string();
        Self::Rejected {
            status: rejection.into_response().status(),
            message,
        }
    }

    /// The refusal as plain text (no page), for answers that are files: the downloads.
    pub fn into_plain_text(self) -> Response {
        let status = self.status();
        let content_type = [(CONTENT_TYPE, "text/plain; charset=utf-8")];
        let mut response = (status, content_type, format!("{self}\n")).into_response();
        response.extensions_mut().insert(Refusal(self.to_string()));
        response
    }
}

/// A failure the HTML renderer carries: its own kind's status, or the one it was given by its
/// cause, the edge or an extractor.
impl HttpStatus for WebError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound(_) => Refused::NotFound.status(),
            Self::BadRequest(_) => Refused::BadRequest.status(),
            Self::Rejected { status, .. } => *status,
        }
    }
}
