//! Errors of the web layer, mapped to status codes in one place and rendered as a
//! readable page (or fragment, for htmx). The cause is logged once, here.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::html;

use super::views::layout::{back_link, notice, page};

#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A request axum could not read (wrong content type, body too large…), with its status.
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
}

impl WebError {
    fn status(&self) -> StatusCode {
        match self {
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::Rejected { status, .. } => *status,
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let status = self.status();
        tracing::info!(status = status.as_u16(), error = %self, "request refused");
        let title = status.canonical_reason().unwrap_or("Error");
        let body = page(
            title,
            html! {
                div.title-row { (back_link()) h1 { (status.as_u16()) " " (title) } }
                (notice("error", Some("page-error"), html! { (self.to_string()) }))
            },
        );
        (status, body).into_response()
    }
}
