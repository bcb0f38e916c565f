//! An HTTP proxy on 127.0.0.1:0 in front of Pulp that forwards every request but one kind:
//! a `PATCH` of one distribution, which it refuses (400) without telling Pulp, as a Pulp
//! that turned that one change down would. The console under test talks to Pulp through it.

use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

struct Forward {
    upstream: String,
    /// The path whose PATCH is refused.
    refused: String,
    client: Client<HttpConnector, Full<Bytes>>,
}

/// The proxy, serving until dropped.
pub struct RefusingProxy {
    pub url: String,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for RefusingProxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl RefusingProxy {
    /// Forwards to `upstream` (`http://127.0.0.1:<port>`), refusing `PATCH <refused>`.
    pub async fn start(upstream: &str, refused: &str) -> Self {
        let forward = Arc::new(Forward {
            upstream: upstream.trim_end_matches('/').to_owned(),
            refused: refused.to_owned(),
            client: Client::builder(TokioExecutor::new()).build_http(),
        });
        let app = Router::new().fallback(relay).with_state(forward);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("the proxy serves");
        });
        Self { url, task }
    }
}

async fn relay(State(forward): State<Arc<Forward>>, request: Request) -> Response {
    let path = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    if request.method() == axum::http::Method::PATCH && request.uri().path() == forward.refused {
        let body = r#"{"detail":"refused by the test's proxy"}"#;
        return (
            StatusCode::BAD_REQUEST,
            [("content-type", "application/json")],
            body,
        )
            .into_response();
    }
    let (parts, body) = request.into_parts();
    let bytes = to_bytes(body, 64 << 20).await.unwrap_or_default();
    let mut upstream = hyper::Request::builder()
        .method(parts.method)
        .uri(format!("{}{path}", forward.upstream));
    for (name, value) in &parts.headers {
        if name != axum::http::header::HOST {
            upstream = upstream.header(name, value);
        }
    }
    let upstream = upstream.body(Full::new(bytes)).expect("a request");
    match forward.client.request(upstream).await {
        Ok(answer) => {
            let (mut parts, body) = answer.into_parts();
            parts.headers.remove("transfer-encoding");
            parts
                .headers
                .insert("connection", HeaderValue::from_static("keep-alive"));
            Response::from_parts(parts, Body::new(body))
        }
        Err(error) => (StatusCode::BAD_GATEWAY, error.to_string()).into_response(),
    }
}
