//! The certificates an outgoing TLS connection trusts by default: the built-in web roots
//! and the operating system's trust store (where a company CA is often installed). Shared by
//! the Pulp client and the webhook sender.

use rustls::RootCertStore;

/// The web roots plus the system's; unreadable system entries are skipped.
pub fn web_and_system() -> RootCertStore {
    let mut roots = RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::debug!(%error, "a system certificate could not be read");
    }
    let (added, ignored) = roots.add_parsable_certificates(found.certs);
    tracing::debug!(added, ignored, "system trust store loaded");
    roots
}
