//! The evidence store port: where each promotion's signed attestation is kept, beside the
//! audit log (a JSON Lines file, a PostgreSQL table, memory).

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::evidence::dsse::Envelope;

/// One attestation as kept: the deploy it is about, where, when, and its envelope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvidence {
    pub deploy_id: DeployId,
    pub repository_uuid: String,
    pub environment: EnvironmentName,
    pub at: DateTime<Utc>,
    pub envelope: Envelope,
}

/// Why evidence could not be kept or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the evidence store ({target}) failed: {reason}")]
pub struct EvidenceStoreError {
    pub target: String,
    pub reason: String,
}

#[async_trait]
pub trait EvidenceStore: Send + Sync {
    /// Keeps `evidence` durably; a deploy has at most one (a second is refused).
    async fn put(&self, evidence: &StoredEvidence) -> Result<(), EvidenceStoreError>;

    /// The attestation of deploy `id`, when there is one.
    async fn of_deploy(&self, id: &DeployId) -> Result<Option<StoredEvidence>, EvidenceStoreError>;

    /// Which of `ids` have an attestation kept: one question for a page's entries, however
    /// many they are.
    async fn attested(&self, ids: &[DeployId]) -> Result<HashSet<DeployId>, EvidenceStoreError>;

    /// The newest attestation of `repository_uuid` in `environment` (the chain's previous).
    async fn newest_of(
        &self,
        repository_uuid: &str,
        environment: &EnvironmentName,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError>;

    /// Where the store keeps evidence, in words.
    fn target(&self) -> String;
}
