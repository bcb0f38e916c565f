//! Errors of the web layer, mapped to status codes in one place and rendered as a
//! readable page, or as a fragment when htmx asked (it swaps the answer into the page).
//! The cause is logged once, in the request's line: it travels in the response as a
//! [`Refusal`].

use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};

use super::edge::request_log::Refusal;
use super::htmx::is_htmx;
use super::views::deploy::message_modal;
use super::views::layout::{error_page, notice};

#[derive(Debug, Clone, thiserror::Error)]
pub enum WebError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A request refused with this status (400, 403, 408, 413, 415, 421, 503…).
    #[error("{message}")]
    Rejected { status: StatusCode, message: String },
}

impl WebError {
    /// From one of axum's extractor rejections, keeping its status (400, 413, 415…).
    pub fn rejected(rejection: impl IntoResponse + std::fmt::Display) -> Self {
        let message = rejection.to_string();
        Self::Rejected {
            status: rejection.into_response().status(),
            message,
        }
    }

    pub(crate) fn status(&self) -> StatusCode {
        match self {
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Rejected { status, .. } => *status,
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
