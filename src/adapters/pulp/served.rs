//! `PulpContent`: what Pulp's content app serves at a distribution, read as a client reads
//! it (`<content_url><base_path>/repodata/repomd.xml`, without credentials), for the subject
//! digest of a promotion's attestation.

use async_trait::async_trait;
use hyper::Method;

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::repository::Distribution;
use crate::ports::served_metadata::ServedMetadata;

use super::transport::http::{HttpTransport, SetupError, TransportError};
use super::transport::settings::PulpSettings;

pub struct PulpContent {
    transport: HttpTransport,
    /// Ends with `/`.
    content_url: String,
}

impl PulpContent {
    /// Reads from `content_url` (e.g. `https://pulp.example.com/pulp/content/`) with the TLS
    /// settings and headers of `settings`.
    pub fn new(settings: &PulpSettings, content_url: &str) -> Result<Self, SetupError> {
        let content_url = if content_url.ends_with('/') {
            content_url.to_owned()
        } else {
            format!("{content_url}/")
        };
        Ok(Self {
            transport: HttpTransport::new(settings)?,
            content_url,
        })
    }

    /// The URL of `distribution`'s `repomd.xml`.
    pub fn repomd_url(&self, distribution: &Distribution) -> String {
        format!(
            "{}{}/repodata/repomd.xml",
            self.content_url,
            distribution.base_path.trim_matches('/')
        )
    }
}

#[async_trait]
impl ServedMetadata for PulpContent {
    async fn repomd_sha256(&self, distribution: &Distribution) -> Result<Sha256Hex, String> {
        let url = self.repomd_url(distribution);
        let response = self
            .transport
            .send(Method::GET, &url, Vec::new(), None)
            .await
            .map_err(|e| format!("{url} could not be read: {}", said(&e)))?;
        if !response.status.is_success() {
            return Err(format!("{url} answered {}", response.status));
        }
        Ok(Sha256Hex::of(&response.body))
    }
}

fn said(error: &TransportError) -> String {
    match error {
        TransportError::Timeout { detail, .. } => detail.clone(),
        TransportError::Refused { .. } => "the connection was refused".into(),
        TransportError::Tls { detail, .. }
        | TransportError::Connect { detail, .. }
        | TransportError::Other { detail, .. } => detail.clone(),
    }
}
