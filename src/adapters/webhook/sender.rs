//! `HttpWebhookSender`: one POST per attempt, on hyper-util's pooled client over rustls
//! (the web roots and the system's trust store), the whole exchange bounded by the
//! delivery timeout. Knows each configured webhook's secret; never logs it.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper::header::{HeaderValue, CONTENT_TYPE, USER_AGENT};
use hyper::{Method, Request};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::ClientConfig;

use crate::domain::{ConsoleEvent, WebhookUrl};
use crate::ports::{SendError, WebhookSender};

use super::cloudevent;
use super::signature::{sign, SIGNATURE_HEADER};

/// A webhook's shared secret. Its `Debug` shows nothing of it.
#[derive(Clone)]
pub struct WebhookSecret(Vec<u8>);

impl WebhookSecret {
    pub fn new(secret: impl Into<Vec<u8>>) -> Self {
        Self(secret.into())
    }
}

impl fmt::Debug for WebhookSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("WebhookSecret(***)")
    }
}

pub struct HttpWebhookSender {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    secrets: HashMap<WebhookUrl, WebhookSecret>,
    /// The CloudEvents `source`.
    source: String,
    timeout: Duration,
}

impl HttpWebhookSender {
    /// A sender to these webhooks, each with its secret, from `source`; an attempt gets
    /// `timeout` for its whole exchange (connecting included).
    pub fn new(
        webhooks: impl IntoIterator<Item = (WebhookUrl, WebhookSecret)>,
        source: String,
        timeout: Duration,
    ) -> Self {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(timeout));
        let tls =
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("ring supports the default TLS versions")
                .with_root_certificates(crate::adapters::shared::tls_roots::web_and_system())
                .with_no_client_auth();
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Self {
            client: Client::builder(TokioExecutor::new()).build(https),
            secrets: webhooks.into_iter().collect(),
            source,
            timeout,
        }
    }

    fn request(
        &self,
        webhook: &WebhookUrl,
        body: Vec<u8>,
        signature: String,
    ) -> Result<Request<Full<Bytes>>, SendError> {
        let signature = HeaderValue::from_str(&signature)
            .map_err(|e| SendError::Unreachable(format!("cannot sign: {e}")))?;
        let agent = concat!("repo-console/", env!("CARGO_PKG_VERSION"));
        Request::builder()
            .method(Method::POST)
            .uri(webhook.as_str())
            .header(CONTENT_TYPE, cloudevent::CONTENT_TYPE)
            .header(USER_AGENT, agent)
            .header(SIGNATURE_HEADER, signature)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| SendError::Unreachable(format!("cannot build the request: {e}")))
    }
}

#[async_trait]
impl WebhookSender for HttpWebhookSender {
    async fn send(&self, webhook: &WebhookUrl, event: &ConsoleEvent) -> Result<(), SendError> {
        let secret = self.secrets.get(webhook).ok_or(SendError::NotConfigured)?;
        let body = cloudevent::body(event, &self.source)
            .map_err(|e| SendError::Unreachable(format!("cannot write the event: {e}")))?;
        let signature = sign(&secret.0, &body);
        let request = self.request(webhook, body, signature)?;
        let exchange = self.client.request(request);
        match tokio::time::timeout(self.timeout, exchange).await {
            Err(_) => Err(SendError::Timeout {
                seconds: self.timeout.as_secs().max(1),
            }),
            Ok(Err(error)) => Err(SendError::Unreachable(cause_chain(&error))),
            Ok(Ok(response)) if response.status().is_success() => Ok(()),
            Ok(Ok(response)) => Err(SendError::Status {
                status: response.status().as_u16(),
            }),
        }
    }
}

/// The error and its causes, joined (hyper's own message alone says little).
fn cause_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut texts = vec![error.to_string()];
    let mut cause = error.source();
    while let Some(inner) = cause {
        texts.push(inner.to_string());
        cause = inner.source();
    }
    texts.dedup();
    texts.join(": ")
}
