//! Where the request being answered is in the console, for the header's navigation: the
//! path (the section it belongs to is marked `aria-current`), and how many deploy requests
//! wait for the viewer (read once per full page, before the handler runs, so that the
//! header of any page can show it). Kept for the length of the request.

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;

use crate::app::approvals::waiting::waiting_for;
use crate::app::AppState;

use super::accept::prefers_html;
use super::htmx::is_htmx;
use super::identity::Identified;

/// What the header's navigation knows of the request.
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// The request's path.
    pub path: String,
    /// Requests the viewer may approve now; `None`: not read (not a full page, the viewer
    /// not identified, or the store unreadable: the header then shows no count).
    pub waiting: Option<usize>,
}

tokio::task_local! {
    static PLACE: Place;
}

/// Middleware (inside the identity's): answers the request knowing its place.
pub async fn mark(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let waiting = match request.extensions().get::<Identified>() {
        Some(Identified(Ok(viewer))) if renders_a_page(&request) => {
            match waiting_for(&state, viewer).await {
                Ok(count) => Some(count),
                Err(error) => {
                    tracing::debug!(%error, "the requests waiting for the viewer were not read");
                    None
                }
            }
        }
        _ => None,
    };
    PLACE
        .scope(Place { path, waiting }, next.run(request))
        .await
}

/// A full page may be answered: a GET that is not htmx's, of a page rather than an asset,
/// a probe, or the metrics Prometheus scrapes.
fn renders_a_page(request: &Request) -> bool {
    let path = request.uri().path();
    request.method() == Method::GET
        && !is_htmx(request.headers())
        && !path.starts_with("/assets/")
        && !matches!(path, "/healthz" | "/readyz")
        && (path != "/metrics" || prefers_html(request.headers()))
}

/// The place of the request being answered; the default outside a request.
pub fn current_place() -> Place {
    PLACE.try_with(Clone::clone).unwrap_or_default()
}
