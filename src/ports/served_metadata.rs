//! What a distribution serves its clients now: the SHA-256 of the metadata they fetch first
//! (RPM: `repodata/repomd.xml`), the subject of a promotion's attestation.

use async_trait::async_trait;

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::repository::Distribution;

#[async_trait]
pub trait ServedMetadata: Send + Sync {
    /// The SHA-256 of `repodata/repomd.xml` as `distribution` serves it now, or why it could
    /// not be read (in the console's words, naming the URL).
    async fn repomd_sha256(&self, distribution: &Distribution) -> Result<Sha256Hex, String>;
}
