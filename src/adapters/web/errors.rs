//! The HTML renderer of a failure: a readable page, or a fragment when htmx asked (it swaps
//! the answer into the page), with the status [`super::status`] gives the failure's cause.
//! (The JSON renderer is [`super::api::ApiError`].) The cause is logged once, in the
//! request's line: it travels in the response as a [`Refusal`].

use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};

use crate::app::diffs::compare::CompareError;
use crate::app::exposure::ExposureError;
use crate::app::facts::{ReadError, UnknownRepository};
use crate::domain::exposure::BadExposureQuery;
use crate::ports::UpstreamError;

use super::edge::request_log::Refusal;
use super::htmx::is_htmx;
use super::status::{HttpStatus, Refused};
use super::views::deploy::message_modal;
use super::views::layout::{error_page, notice};

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

    fn title(&self) -> String {
        let status = self.status();
        let reason = status.canonical_reason().unwrap_or("Error");
        format!("{} {reason}", status.as_u16())
    }

    fn message(&self) -> Markup {
        notice("error", Some("page-error"), html! { (self.to_string()) })
    }

    /// What htmx swaps in: the modal when the request targets it, else the message alone.
    fn fragment(&self, target: Option<&str>) -> Markup {
        match target {
            // As the modal's other refusals (409, 422) show theirs.
            Some("modal-host") => message_modal(
                &self.title(),
                notice("error", Some("deploy-error"), html! { (self.to_string()) }),
            ),
            _ => self.message(),
        }
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

impl IntoResponse for WebError {
    /// The whole page; [`htmx_fragments`] turns it into a fragment for htmx. The error
    /// travels in the response's extensions for that.
    fn into_response(self) -> Response {
        let status = self.status();
        let body = error_page(&self.title(), self.message(), None);
        let mut response = (status, body).into_response();
        response.extensions_mut().insert(Refusal(self.to_string()));
        response.extensions_mut().insert(self);
        response
    }
}

/// Middleware: an error answered to an htmx request is a fragment, never a whole page
/// (htmx would put the page inside the modal or the table cell).
pub async fn htmx_fragments(request: Request, next: Next) -> Response {
    let htmx = is_htmx(request.headers());
    let target = request
        .headers()
        .get("hx-target")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let response = next.run(request).await;
    if !htmx {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let Some(error) = parts.extensions.get::<WebError>() else {
        return Response::from_parts(parts, body);
    };
    let fragment = error.fragment(target.as_deref()).into_string();
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(fragment))
}
