//! The HTTP transport: hyper-util's pooled client over rustls, with timeouts and the
//! operator's extra headers on every request. Knows nothing of Pulp's JSON or auth.

use std::error::Error as StdError;
use std::io;
use std::path::Path;
use std::sync::{Arc, Once};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{HeaderName, HeaderValue, SET_COOKIE};
use hyper::{Method, Request, StatusCode};
use hyper_rustls::{HttpsConnector, HttpsConnectorBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};

use crate::adapters::pulp::transport::settings::PulpSettings;

/// The client could not be built from its settings (bad CA file, bad header…).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot set up the Pulp client: {0}")]
pub struct SetupError(pub String);

/// What came back, whatever the status.
#[derive(Debug, Clone)]
pub(crate) struct RawResponse {
    pub status: StatusCode,
    pub set_cookies: Vec<String>,
    pub body: Bytes,
}

/// Why no response came back. Each names the URL that was tried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TransportError {
    Timeout { url: String, detail: String },
    Refused { url: String },
    Tls { url: String, detail: String },
    Connect { url: String, detail: String },
    Other { url: String, detail: String },
}

pub(crate) struct HttpTransport {
    client: Client<HttpsConnector<HttpConnector>, Full<Bytes>>,
    extra_headers: Vec<(HeaderName, HeaderValue)>,
    request_timeout: Duration,
}

impl HttpTransport {
    pub fn new(settings: &PulpSettings) -> Result<Self, SetupError> {
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        http.set_connect_timeout(Some(settings.connect_timeout));
        let https = HttpsConnectorBuilder::new()
            .with_tls_config(tls_config(settings)?)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Ok(Self {
            client: Client::builder(TokioExecutor::new()).build(https),
            extra_headers: parse_headers(&settings.extra_headers)?,
            request_timeout: settings.request_timeout,
        })
    }

    /// Sends one request and reads the whole body, within the request timeout.
    pub async fn send(
        &self,
        method: Method,
        url: &str,
        headers: Vec<(HeaderName, HeaderValue)>,
        body: Option<Bytes>,
    ) -> Result<RawResponse, TransportError> {
        let request = self.build(method, url, headers, body)?;
        let exchange = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| classify(&e, url))?;
            let (parts, body) = response.into_parts();
            let body = body
                .collect()
                .await
                .map_err(|e| classify(&e, url))?
                .to_bytes();
            let set_cookies = parts
                .headers
                .get_all(SET_COOKIE)
                .iter()
                .filter_map(|v| v.to_str().ok().map(str::to_owned))
                .collect();
            Ok(RawResponse {
                status: parts.status,
                set_cookies,
                body,
            })
        };
        tokio::time::timeout(self.request_timeout, exchange)
            .await
            .unwrap_or_else(|_| {
                Err(TransportError::Timeout {
                    url: url.to_owned(),
                    detail: format!(
                        "no complete answer within {} s",
                        self.request_timeout.as_secs_f32()
                    ),
                })
            })
    }

    fn build(
        &self,
        method: Method,
        url: &str,
        headers: Vec<(HeaderName, HeaderValue)>,
        body: Option<Bytes>,
    ) -> Result<Request<Full<Bytes>>, TransportError> {
        let mut builder = Request::builder()
            .method(method)
            .uri(url)
            .header(hyper::header::ACCEPT, "application/json");
        if body.is_some() {
            builder = builder.header(hyper::header::CONTENT_TYPE, "application/json");
        }
        for (name, value) in self.extra_headers.iter().chain(headers.iter()) {
            builder = builder.header(name, value);
        }
        // The deploy this request belongs to: Pulp logs it and keeps it as its task's logging_cid.
        let correlation = crate::ports::correlation::current();
        if let Some(id) = correlation.and_then(|id| HeaderValue::from_str(&id).ok()) {
            builder = builder.header("correlation-id", id);
        }
        builder
            .body(Full::new(body.unwrap_or_default()))
            .map_err(|e| TransportError::Other {
                url: url.to_owned(),
                detail: format!("cannot build the request: {e}"),
            })
    }
}

fn parse_headers(raw: &[(String, String)]) -> Result<Vec<(HeaderName, HeaderValue)>, SetupError> {
    raw.iter()
        .map(|(name, value)| {
            let n = HeaderName::from_bytes(name.as_bytes())
                .map_err(|_| SetupError(format!("'{name}' is not a valid header name")))?;
            let mut v = HeaderValue::from_str(value)
                .map_err(|_| SetupError(format!("the value of header '{name}' is not valid")))?;
            v.set_sensitive(true);
            Ok((n, v))
        })
        .collect()
}

fn tls_config(settings: &PulpSettings) -> Result<ClientConfig, SetupError> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| SetupError(format!("TLS: {e}")))?;
    if !settings.verify_tls {
        // A wrong ca_file is still reported, so turning verification back on cannot surprise.
        if let Some(path) = &settings.ca_file {
            add_pem_bundle(&mut RootCertStore::empty(), path)?;
        }
        static WARNED: Once = Once::new();
        WARNED.call_once(|| {
            tracing::warn!(
                base_url = %settings.base_url,
                "TLS certificate verification of Pulp is OFF (verify_tls = false): \
                 any server can pretend to be Pulp. Use this for test servers only."
            )
        });
        return Ok(builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AcceptAnyCertificate(provider)))
            .with_no_client_auth());
    }
    let mut roots = crate::adapters::shared::tls_roots::web_and_system();
    if let Some(path) = &settings.ca_file {
        add_pem_bundle(&mut roots, path)?;
    }
    Ok(builder.with_root_certificates(roots).with_no_client_auth())
}

/// Adds every certificate of the PEM bundle at `path` to `roots` (see
/// [`crate::adapters::shared::tls_roots::add_pem_bundle`]).
fn add_pem_bundle(roots: &mut RootCertStore, path: &Path) -> Result<(), SetupError> {
    crate::adapters::shared::tls_roots::add_pem_bundle(roots, path).map_err(SetupError)
}

/// `verify_tls = false`: accepts any certificate (signatures are still checked).
#[derive(Debug)]
struct AcceptAnyCertificate(Arc<CryptoProvider>);

impl ServerCertVerifier for AcceptAnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algorithms = &self.0.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

/// Sorts a transport failure by walking its cause chain. `io::Error` hides its inner
/// error from `source()` (and TLS errors come wrapped in two of them), so each
/// `io::Error` is opened by hand.
fn classify(err: &(dyn StdError + 'static), url: &str) -> TransportError {
    let url = url.to_owned();
    let mut texts: Vec<String> = Vec::new();
    let mut current: Option<&(dyn StdError + 'static)> = Some(err);
    let (mut refused, mut timed_out, mut tls) = (false, false, false);
    while let Some(e) = current {
        let text = e.to_string();
        if !texts.iter().any(|t| t.contains(&text)) {
            texts.push(text);
        }
        tls |= e.is::<rustls::Error>();
        let mut inner: Option<&(dyn StdError + 'static)> = None;
        if let Some(io) = e.downcast_ref::<io::Error>() {
            refused |= io.kind() == io::ErrorKind::ConnectionRefused;
            timed_out |= io.kind() == io::ErrorKind::TimedOut;
            inner = io.get_ref().map(|i| i as &(dyn StdError + 'static));
        }
        current = inner.or_else(|| e.source());
    }
    let detail = texts.join(": ");
    let is_connect = err
        .downcast_ref::<hyper_util::client::legacy::Error>()
        .is_some_and(|e| e.is_connect());
    match () {
        _ if tls => TransportError::Tls { url, detail },
        _ if refused => TransportError::Refused { url },
        _ if timed_out => TransportError::Timeout {
            url,
            detail: format!("no connection within the connect timeout ({detail})"),
        },
        _ if is_connect => TransportError::Connect { url, detail },
        _ => TransportError::Other { url, detail },
    }
}
