//! A webhook receiver for the tests: a tiny axum server on 127.0.0.1 that keeps every request
//! it gets and answers as told (refuse the first ones, always fail, or never answer).
//! Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How the receiver answers.
#[derive(Clone, Copy, Debug)]
pub enum Answer {
    /// 503 to the first `n` requests, then 204.
    RefuseFirst(usize),
    /// 500 to every request.
    AlwaysFail,
    /// Never answers (the request hangs until the sender gives up on it).
    Never,
}

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Received {
    pub body: Vec<u8>,
    pub content_type: String,
    /// The deprecated `X-Repo-Console-Signature` (empty when not sent: the default).
    pub signature: String,
    /// The Standard Webhooks headers: `webhook-id`, `webhook-timestamp`, `webhook-signature`.
    pub webhook_id: String,
    pub webhook_timestamp: String,
    pub webhook_signature: String,
}

impl Received {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }

    /// `webhook-signature` holds `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with
    /// `secret` (one of its space-separated signatures).
    pub fn signed_with(&self, secret: &[u8]) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).unwrap();
        mac.update(format!("{}.{}.", self.webhook_id, self.webhook_timestamp).as_bytes());
        mac.update(&self.body);
        let expected = format!(
            "v1,{}",
            base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
        );
        self.webhook_signature
            .split(' ')
            .any(|signature| signature == expected)
    }

    /// The deprecated header is `sha256=<hex HMAC-SHA256 of the body>` with `secret`.
    pub fn signed_the_deprecated_way_with(&self, secret: &[u8]) -> bool {
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).unwrap();
        mac.update(&self.body);
        let hex: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        self.signature == format!("sha256={hex}")
    }
}

#[derive(Clone)]
struct Shared {
    answer: Answer,
    got: Arc<Mutex<Vec<Received>>>,
}

pub struct Receiver {
    /// `http://127.0.0.1:<port>/hook`.
    pub url: String,
    got: Arc<Mutex<Vec<Received>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Receiver {
    /// Serves on a free port.
    pub async fn start(answer: Answer) -> Self {
        Self::on(
            tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
            answer,
        )
    }

    /// Serves on `listener`.
    pub fn on(listener: tokio::net::TcpListener, answer: Answer) -> Self {
        let url = format!("http://{}/hook", listener.local_addr().unwrap());
        let got = Arc::new(Mutex::new(Vec::new()));
        let shared = Shared {
            answer,
            got: got.clone(),
        };
        let router = Router::new().route("/hook", post(hook)).with_state(shared);
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, router).await;
        });
        Self { url, got, server }
    }

    pub fn got(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits (10 s at most, then fails) until the receiver got `n` requests.
    pub async fn until_got(&self, n: usize) -> Vec<Received> {
        let waited = tokio::time::timeout(std::time::Duration::from_secs(10), async {
            loop {
                let got = self.got();
                if got.len() >= n {
                    return got;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
        });
        waited
            .await
            .unwrap_or_else(|_| panic!("{n} requests expected, got {:?}", self.got()))
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.server.abort();
    }
}

async fn hook(State(shared): State<Shared>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned()
    };
    let count = {
        let mut got = shared.got.lock().unwrap();
        got.push(Received {
            body: body.to_vec(),
            content_type: header("content-type"),
            signature: header("x-repo-console-signature"),
            webhook_id: header("webhook-id"),
            webhook_timestamp: header("webhook-timestamp"),
            webhook_signature: header("webhook-signature"),
        });
        got.len()
    };
    match shared.answer {
        Answer::RefuseFirst(n) if count <= n => StatusCode::SERVICE_UNAVAILABLE,
        Answer::RefuseFirst(_) => StatusCode::NO_CONTENT,
        Answer::AlwaysFail => StatusCode::INTERNAL_SERVER_ERROR,
        Answer::Never => std::future::pending().await,
    }
}
