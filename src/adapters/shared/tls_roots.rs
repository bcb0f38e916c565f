//! The certificates an outgoing TLS connection trusts by default: the built-in web roots
//! and the operating system's trust store (where a company CA is often installed). Shared by
//! the Pulp client and the webhook sender, as is reading a CA file (`ca_file`) into them.

use std::fs::File;
use std::path::Path;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
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

/// Adds every certificate of the PEM bundle at `path` to `roots`; the error names the file
/// and what is wrong with it.
pub fn add_pem_bundle(roots: &mut RootCertStore, path: &Path) -> Result<(), String> {
    let shown = path.display();
    let file = File::open(path).map_err(|e| format!("CA file {shown} cannot be opened: {e}"))?;
    let mut added = 0;
    for cert in CertificateDer::pem_reader_iter(file) {
        let cert = cert.map_err(|e| format!("CA file {shown} is not valid PEM: {e}"))?;
        roots.add(cert).map_err(|e| {
            format!(
                "CA file {shown}: certificate {} cannot be used as a CA: {e}",
                added + 1
            )
        })?;
        added += 1;
    }
    if added == 0 {
        return Err(format!(
            "CA file {shown} holds no PEM certificate (no -----BEGIN CERTIFICATE----- block)"
        ));
    }
    Ok(())
}
