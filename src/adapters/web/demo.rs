//! Whether the request being answered is served from the built-in demo upstream: kept for the
//! length of the request, so that every full page can say so (the layout's banner).

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

use crate::app::AppState;

tokio::task_local! {
    static DEMO: bool;
}

/// Middleware: answers the request knowing whether the demo upstream serves it.
pub async fn mark(State(state): State<AppState>, request: Request, next: Next) -> Response {
    DEMO.scope(state.serves_demo(), next.run(request)).await
}

/// The demo upstream serves the request being answered; `false` outside a request.
pub fn serving_demo() -> bool {
    DEMO.try_with(|demo| *demo).unwrap_or(false)
}
