//! `HttpWebhookSender`: one POST per attempt, on hyper-util's pooled client over rustls
//! (the web roots and the system's trust store), the whole exchange bounded by the
//! delivery timeout, signed as the Standard Webhooks specification says (and with the
//! deprecated body-only header only when configured to). Knows each configured webhook's secret; never logs it. A webhook with
//! a `ca_file` is reached with its own client trusting that CA too.

use std::collections::HashMap;
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
use rustls::{ClientConfig, RootCertStore};

use crate::domain::event::{ConsoleEvent, WebhookUrl};
use crate::ports::{SendError, WebhookSender};

use super::cloudevent;
use super::secret::WebhookSecret;
use super::signature::{
    sign, sign_standard, ID_HEADER, SIGNATURE_HEADER, STANDARD_SIGNATURE_HEADER, TIMESTAMP_HEADER,
};

type HttpsClient = Client<HttpsConnector<HttpConnector>, Full<Bytes>>;

pub struct HttpWebhookSender {
    client: HttpsClient,
    /// The webhooks whose receiver's certificate is issued by a CA of their own (`ca_file`).
    own_ca: HashMap<WebhookUrl, HttpsClient>,
    secrets: HashMap<WebhookUrl, WebhookSecret>,
    /// The CloudEvents `source`.
    source: String,
    timeout: Duration,
    /// Also sign with the deprecated, replayable `X-Repo-Console-Signature`.
    deprecated_signature: bool,
}

impl HttpWebhookSender {
    /// A sender to these webhooks, each with its secret, from `source`; an attempt gets
    /// `timeout` for its whole exchange (connecting included).
    pub fn new(
        webhooks: impl IntoIterator<Item = (WebhookUrl, WebhookSecret)>,
        source: String,
        timeout: Duration,
    ) -> Self {
        Self {
            client: client(
                crate::adapters::shared::tls_roots::web_and_system(),
                timeout,
            ),
            own_ca: HashMap::new(),
            secrets: webhooks.into_iter().collect(),
            source,
            timeout,
            deprecated_signature: false,
        }
    }

    /// Also signs every delivery with the deprecated body-only header when `send` (for a
    /// receiver not yet moved to the Standard Webhooks headers). Off unless asked.
    pub fn with_deprecated_signature(mut self, send: bool) -> Self {
        self.deprecated_signature = send;
        self
    }

    /// Connects to `webhook` trusting `roots` (the defaults and its `ca_file`).
    pub fn trusting(mut self, webhook: WebhookUrl, roots: RootCertStore) -> Self {
        self.own_ca.insert(webhook, client(roots, self.timeout));
        self
    }

    /// The POST of `body` to `webhook`, with the event's id and its signatures at `timestamp`.
    fn request(
        &self,
        webhook: &WebhookUrl,
        secret: &WebhookSecret,
        event: &ConsoleEvent,
        body: Vec<u8>,
    ) -> Result<Request<Full<Bytes>>, SendError> {
        let timestamp = chrono::Utc::now().timestamp();
        let id = event.id.as_str();
        let header = |text: String| {
            HeaderValue::from_str(&text)
                .map_err(|e| SendError::Unreachable(format!("cannot sign: {e}")))
        };
        let standard = header(sign_standard(secret, id, timestamp, &body))?;
        let agent = concat!("repo-console/", env!("CARGO_PKG_VERSION"));
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(webhook.as_str())
            .header(CONTENT_TYPE, cloudevent::CONTENT_TYPE)
            .header(USER_AGENT, agent)
            .header(ID_HEADER, header(id.to_owned())?)
            .header(TIMESTAMP_HEADER, timestamp)
            .header(STANDARD_SIGNATURE_HEADER, standard);
        if self.deprecated_signature {
            request = request.header(SIGNATURE_HEADER, header(sign(secret.signing_key(), &body))?);
        }
        request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| SendError::Unreachable(format!("cannot build the request: {e}")))
    }
}

/// A pooled HTTP(S) client trusting `roots`, connecting within `timeout`.
fn client(roots: RootCertStore, timeout: Duration) -> HttpsClient {
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_nodelay(true);
    http.set_connect_timeout(Some(timeout));
    let tls =
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("ring supports the default TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
    let https = HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Client::builder(TokioExecutor::new()).build(https)
}

#[async_trait]
impl WebhookSender for HttpWebhookSender {
    async fn send(&self, webhook: &WebhookUrl, event: &ConsoleEvent) -> Result<(), SendError> {
        let secret = self.secrets.get(webhook).ok_or(SendError::NotConfigured)?;
        let body = cloudevent::body(event, &self.source)
            .map_err(|e| SendError::Unreachable(format!("cannot write the event: {e}")))?;
        let request = self.request(webhook, secret, event, body)?;
        let client = self.own_ca.get(webhook).unwrap_or(&self.client);
        let exchange = client.request(request);
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
