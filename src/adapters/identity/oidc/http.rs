//! The HTTP client the OIDC library speaks through: hyper over rustls (ring), trusting the
//! web roots and the system's (`adapters/shared/tls_roots`), each exchange bounded by a
//! timeout, redirects never followed (a provider's endpoints are where discovery says).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::ClientConfig;

use crate::adapters::shared::tls_roots;

/// The most a provider's answer may hold (discovery, keys, tokens): 1 MiB.
const LARGEST_ANSWER: usize = 1 << 20;

/// One exchange with the provider failed.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExchangeFailed(String);

#[derive(Clone)]
pub struct ProviderHttp {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    timeout: Duration,
}

impl ProviderHttp {
    pub fn new(timeout: Duration) -> Self {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(timeout));
        let tls =
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("ring supports the default TLS versions")
                .with_root_certificates(tls_roots::web_and_system())
                .with_no_client_auth();
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Self {
            client: Client::builder(TokioExecutor::new()).build(https),
            timeout,
        }
    }

    async fn exchange(
        &self,
        request: openidconnect::HttpRequest,
    ) -> Result<openidconnect::HttpResponse, ExchangeFailed> {
        let (parts, body) = request.into_parts();
        let request = axum::http::Request::from_parts(parts, Full::new(Bytes::from(body)));
        let target = request.uri().to_string();
        let work = async {
            let answer = self
                .client
                .request(request)
                .await
                .map_err(|e| ExchangeFailed(format!("{target}: {e}")))?;
            let (parts, body) = answer.into_parts();
            let body = Limited::new(body, LARGEST_ANSWER)
                .collect()
                .await
                .map_err(|e| ExchangeFailed(format!("{target}: the answer was not read: {e}")))?
                .to_bytes();
            Ok(axum::http::Response::from_parts(parts, body.to_vec()))
        };
        tokio::time::timeout(self.timeout, work)
            .await
            .map_err(|_| {
                ExchangeFailed(format!(
                    "{target}: no answer within {} s",
                    self.timeout.as_secs()
                ))
            })?
    }
}

impl<'c> openidconnect::AsyncHttpClient<'c> for ProviderHttp {
    type Error = ExchangeFailed;
    type Future = Pin<
        Box<dyn Future<Output = Result<openidconnect::HttpResponse, ExchangeFailed>> + Send + 'c>,
    >;

    fn call(&'c self, request: openidconnect::HttpRequest) -> Self::Future {
        Box::pin(self.exchange(request))
    }
}
