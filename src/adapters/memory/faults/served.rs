//! What the faulty Pulp's distributions serve: the in-memory Pulp's (no fault applies).

use async_trait::async_trait;

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::repository::Distribution;
use crate::ports::served_metadata::ServedMetadata;

use super::FaultyPulp;

#[async_trait]
impl ServedMetadata for FaultyPulp {
    async fn repomd_sha256(&self, distribution: &Distribution) -> Result<Sha256Hex, String> {
        self.inner().repomd_sha256(distribution).await
    }
}
