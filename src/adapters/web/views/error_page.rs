//! The HTML renderer of a [`WebError`]: a readable page, or a fragment when htmx asked (it
//! swaps the answer into the page), with the error's status. The error travels in the
//! response's extensions, for [`htmx_fragments`], and its words in a [`Refusal`] for the
//! request's log line.

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use maud::{html, Markup};

use crate::adapters::web::errors::WebError;
use crate::adapters::web::htmx::is_htmx;
use crate::adapters::web::refusal_note::Refusal;
use crate::adapters::web::status::HttpStatus;

use super::layout::{error_page, notice};
use super::modal::message_modal;

/// The parts of the page or fragment.
trait Rendered {
    fn title(&self) -> String;
    fn message(&self) -> Markup;
    fn fragment(&self, target: Option<&str>) -> Markup;
}

impl Rendered for WebError {
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
