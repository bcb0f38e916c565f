//! HTTPS for real: a fake Pulp on 127.0.0.1 behind rustls, with a CA and a server
//! certificate made at test time. Proves that the CA file is trusted, that the built-in
//! web roots alone refuse the server, that `verify_tls = false` connects (and warns),
//! and that a bad CA file is refused when the client is built.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::routing::get;
use axum::{Json, Router};
use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use tokio_rustls::server::TlsStream;
use tokio_rustls::TlsAcceptor;

use crate::adapters::pulp::{PulpClient, PulpSettings, Secret};
use crate::ports::{PageRequest, RepositoryManager, UpstreamError};
use crate::wiring::default_pulp_settings;

const REPO: &str = "/pulp/api/v3/repositories/rpm/rpm/0190a0b2-7c3e-7000-8000-000000000001/";

/// A CA written to `ca.pem` in a temporary folder, and a server certificate it signed
/// for `localhost` and `127.0.0.1`.
struct Pki {
    dir: tempfile::TempDir,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl Pki {
    fn new() -> Self {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "repo-console test CA");
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca_cert = ca.self_signed(&ca_key).unwrap();

        let key = KeyPair::generate().unwrap();
        let mut server =
            CertificateParams::new(vec!["localhost".into(), "127.0.0.1".into()]).unwrap();
        server
            .distinguished_name
            .push(DnType::CommonName, "fake pulp");
        server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = server
            .signed_by(&key, &Issuer::from_params(&ca, &ca_key))
            .unwrap();

        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ca.pem"), ca_cert.pem()).unwrap();
        Self {
            dir,
            chain: vec![cert.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()).into(),
        }
    }

    fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }
}

/// Accepts TCP connections and completes the TLS handshake before handing them to axum;
/// a failed handshake (the client refused the certificate) is dropped.
struct TlsListener {
    tcp: TcpListener,
    acceptor: TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let Ok((tcp, addr)) = self.tcp.accept().await else {
                continue;
            };
            if let Ok(tls) = self.acceptor.accept(tcp).await {
                return (tls, addr);
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<Self::Addr> {
        self.tcp.local_addr()
    }
}

/// The fake Pulp over TLS; the server task ends when this is dropped.
struct FakePulp {
    port: u16,
    answered: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Drop for FakePulp {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl FakePulp {
    async fn start(pki: &Pki) -> Self {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(pki.chain.clone(), pki.key.clone_key())
            .unwrap();
        let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = tcp.local_addr().unwrap().port();
        let answered = Arc::new(AtomicUsize::new(0));
        let count = answered.clone();
        let app = Router::new()
            .route(
                "/pulp/api/v3/repositories/rpm/rpm/",
                get(move || async move {
                    count.fetch_add(1, Ordering::SeqCst);
                    Json(json!({
                        "count": 1, "next": null, "previous": null,
                        "results": [{"pulp_href": REPO, "name": "rocky-9-baseos"}]
                    }))
                }),
            )
            // Which plugins it has: pulp_rpm alone.
            .route(
                "/pulp/api/v3/status/",
                get(|| async { Json(json!({"versions": [{"component": "rpm"}]})) }),
            );
        let listener = TlsListener {
            tcp,
            acceptor: TlsAcceptor::from(Arc::new(config)),
        };
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            port,
            answered,
            task,
        }
    }

    fn settings(&self, host: &str, ca_file: Option<&Path>, verify_tls: bool) -> PulpSettings {
        PulpSettings {
            password: Secret::new("password"),
            ca_file: ca_file.map(Path::to_path_buf),
            verify_tls,
            use_session: false,
            ..default_pulp_settings(&format!("https://{host}:{}", self.port)).unwrap()
        }
    }
}

async fn list(settings: PulpSettings) -> Result<Vec<String>, UpstreamError> {
    let client = PulpClient::new(settings).expect("valid settings");
    let page = client
        .list_repos(PageRequest {
            offset: 0,
            limit: 10,
        })
        .await?;
    assert_eq!(page.total, 1);
    Ok(page.items.into_iter().filter_map(|r| r.name).collect())
}

#[tokio::test]
async fn https_with_the_ca_file_lists_repositories() {
    let pki = Pki::new();
    let pulp = FakePulp::start(&pki).await;
    // An IP address (no SNI, IP SAN) and a DNS name (SNI, DNS SAN).
    for host in ["127.0.0.1", "localhost"] {
        let names = list(pulp.settings(host, Some(&pki.ca_file()), true))
            .await
            .unwrap_or_else(|e| panic!("https://{host} with the CA file: {e}"));
        assert_eq!(names, ["rocky-9-baseos"], "{host}");
    }
    assert_eq!(pulp.answered.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn https_without_the_ca_file_is_refused_and_points_at_the_ca_file() {
    let pki = Pki::new();
    let pulp = FakePulp::start(&pki).await;
    let err = list(pulp.settings("127.0.0.1", None, true))
        .await
        .expect_err("a certificate from an unknown CA must be refused");
    let UpstreamError::Unreachable(message) = &err else {
        panic!("expected Unreachable, got {err:?}");
    };
    for expected in ["TLS", "certificate", "check the CA file"] {
        assert!(
            message.contains(expected),
            "'{expected}' missing from: {message}"
        );
    }
    assert_eq!(
        pulp.answered.load(Ordering::SeqCst),
        0,
        "no request got through"
    );
}

/// Counts the warnings about verification being off.
struct VerificationOffWarnings(Arc<AtomicUsize>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for VerificationOffWarnings {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let is_warning = *event.metadata().level() == tracing::Level::WARN;
        let mut text = String::new();
        event.record(
            &mut |_: &tracing::field::Field, value: &dyn std::fmt::Debug| {
                text.push_str(&format!("{value:?} "));
            },
        );
        if is_warning && text.contains("verification of Pulp is OFF") {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// The warning is logged once per process (a `Once` in http.rs): this must stay the only
/// unit test that builds a client with verification off, or the count may be 0 here.
#[tokio::test]
async fn https_without_verification_connects_and_warns_once() {
    use tracing_subscriber::layer::SubscriberExt;

    let pki = Pki::new();
    let pulp = FakePulp::start(&pki).await;
    let warnings = Arc::new(AtomicUsize::new(0));
    let subscriber = tracing_subscriber::registry().with(VerificationOffWarnings(warnings.clone()));
    let clients = tracing::subscriber::with_default(subscriber, || {
        [1, 2].map(|_| PulpClient::new(pulp.settings("127.0.0.1", None, false)).unwrap())
    });
    assert_eq!(
        warnings.load(Ordering::SeqCst),
        1,
        "warned once for two clients"
    );
    for client in &clients {
        let page = client
            .list_repos(PageRequest {
                offset: 0,
                limit: 10,
            })
            .await
            .expect("verification off accepts the unknown CA");
        assert_eq!(page.items[0].name.as_deref(), Some("rocky-9-baseos"));
    }
    assert_eq!(pulp.answered.load(Ordering::SeqCst), 2);
}

#[test]
fn a_missing_or_non_pem_ca_file_fails_setup_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "this is not a certificate\n").unwrap();
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(
        &garbage,
        "-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let cases = [
        (dir.path().join("missing.pem"), "cannot be opened"),
        (text, "holds no PEM certificate"),
        (garbage, "cannot be used as a CA"),
    ];
    for (path, what_is_wrong) in cases {
        for verify_tls in [true, false] {
            let settings = PulpSettings {
                ca_file: Some(path.clone()),
                verify_tls,
                ..default_pulp_settings("https://127.0.0.1:1").unwrap()
            };
            let err = PulpClient::new(settings)
                .expect_err("a bad CA file is refused, verification on or off");
            let shown = path.display().to_string();
            assert!(err.0.contains(&shown), "{shown} not named in: {err}");
            assert!(
                err.0.contains(what_is_wrong),
                "{what_is_wrong:?} not said in: {err}"
            );
        }
    }
}
