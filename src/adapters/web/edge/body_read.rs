//! Reads a request's whole body before the handler runs, within the size limit (413) and
//! the body timeout (408), so a client that stalls mid-body cannot hold a connection, and a
//! shutdown does not wait for a body that is still arriving (503: send it again).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use hyper::body::Body as _;
use tokio::sync::watch;

use crate::adapters::web::errors::WebError;

pub struct BodyPolicy {
    pub limit: usize,
    pub timeout: Duration,
    /// Becomes `true` when the console shuts down.
    pub stop: watch::Receiver<bool>,
}

pub async fn read_whole_body(
    State(policy): State<Arc<BodyPolicy>>,
    request: Request,
    next: Next,
) -> Response {
    let (parts, body) = request.into_parts();
    match read(&policy, body).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(error) => error.into_response(),
    }
}

async fn read(policy: &BodyPolicy, body: Body) -> Result<Bytes, WebError> {
    let too_large = || WebError::Rejected {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!(
            "The request body is larger than {} KiB: a form of the console is a few bytes.",
            policy.limit / 1024
        ),
    };
    if body.size_hint().lower() > policy.limit as u64 {
        return Err(too_large());
    }
    let collect = tokio::time::timeout(policy.timeout, Limited::new(body, policy.limit).collect());
    let mut stop = policy.stop.clone();
    let collected = tokio::select! {
        biased;
        collected = collect => collected,
        () = stopped(&mut stop) => return Err(WebError::Rejected {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: "The console is shutting down and the request had not fully arrived: \
                      nothing was done. Send it again when the console is back.".into(),
        }),
    };
    match collected {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(error)) if error.is::<LengthLimitError>() => Err(too_large()),
        Ok(Err(_)) => Err(WebError::BadRequest(
            "The request body could not be read: the connection failed while sending it.".into(),
        )),
        Err(_) => Err(WebError::Rejected {
            status: StatusCode::REQUEST_TIMEOUT,
            message: format!(
                "The request body did not arrive within {} s: nothing was done.",
                policy.timeout.as_secs_f32()
            ),
        }),
    }
}

/// Completes when `stop` becomes `true`; never if its sender is gone without that.
pub async fn stopped(stop: &mut watch::Receiver<bool>) {
    if stop.wait_for(|stopped| *stopped).await.is_err() {
        std::future::pending::<()>().await;
    }
}
