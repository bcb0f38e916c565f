//! In-memory evidence: the store (the reference of the store's contract) and what the
//! in-memory Pulp's distributions serve (a `repomd.xml` of their own per version served).

use std::collections::HashSet;
use std::sync::Mutex;

use async_trait::async_trait;

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::Distribution;
use crate::ports::evidence_store::{EvidenceStore, EvidenceStoreError, StoredEvidence};
use crate::ports::served_metadata::ServedMetadata;

use super::in_memory::InMemoryPulp;

/// Every attestation, oldest first.
#[derive(Default)]
pub struct MemoryEvidenceStore {
    kept: Mutex<Vec<StoredEvidence>>,
}

#[async_trait]
impl EvidenceStore for MemoryEvidenceStore {
    async fn put(&self, evidence: &StoredEvidence) -> Result<(), EvidenceStoreError> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.iter().any(|e| e.deploy_id == evidence.deploy_id) {
            return Err(EvidenceStoreError {
                target: self.target(),
                reason: format!(
                    "deploy {} already has its evidence",
                    evidence.deploy_id.as_str()
                ),
            });
        }
        kept.push(evidence.clone());
        Ok(())
    }

    async fn of_deploy(&self, id: &DeployId) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        Ok(kept.iter().find(|e| &e.deploy_id == id).cloned())
    }

    async fn attested(&self, ids: &[DeployId]) -> Result<HashSet<DeployId>, EvidenceStoreError> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        Ok(kept
            .iter()
            .filter(|e| ids.contains(&e.deploy_id))
            .map(|e| e.deploy_id.clone())
            .collect())
    }

    async fn newest_of(
        &self,
        repository_uuid: &str,
        environment: &EnvironmentName,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        Ok(kept
            .iter()
            .rev()
            .find(|e| e.repository_uuid == repository_uuid && &e.environment == environment)
            .cloned())
    }

    fn target(&self) -> String {
        "memory".into()
    }
}

/// The in-memory Pulp serves, at each distribution, a `repomd.xml` naming its base path and
/// the version it serves: its SHA-256 changes exactly when the version served does.
pub fn served_repomd(distribution: &Distribution, version: Option<u64>) -> Vec<u8> {
    format!(
        "<repomd base_path=\"{}\" version=\"{}\"/>\n",
        distribution.base_path,
        version.map_or("none".to_owned(), |v| v.to_string())
    )
    .into_bytes()
}

#[async_trait]
impl ServedMetadata for InMemoryPulp {
    async fn repomd_sha256(&self, distribution: &Distribution) -> Result<Sha256Hex, String> {
        let version = self.serving_version(&distribution.name).map(|n| n.get());
        Ok(Sha256Hex::of(&served_repomd(distribution, version)))
    }
}
