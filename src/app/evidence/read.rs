//! A deploy's attestation read back for the JSON API, and the public keys an auditor
//! verifies with.

use std::collections::HashSet;

use crate::app::AppState;
use crate::domain::deploy::DeployId;
use crate::domain::evidence::dsse::Envelope;
use crate::ports::evidence_signer::PublishedKey;
use crate::ports::evidence_store::EvidenceStoreError;

/// Why a deploy's evidence cannot be answered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvidenceReadError {
    #[error("this console signs no evidence: set [evidence] key_file (see the book's Evidence for auditors)")]
    NotSigned,
    #[error("deploy {0} has no evidence: it moved nothing, it was made before the console signed evidence, or its signature could not be kept (the log says why)")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] EvidenceStoreError),
}

/// The envelope of deploy `id`.
pub async fn of_deploy(state: &AppState, id: &DeployId) -> Result<Envelope, EvidenceReadError> {
    let evidence = state.evidence().ok_or(EvidenceReadError::NotSigned)?;
    evidence
        .store
        .of_deploy(id)
        .await?
        .map(|kept| kept.envelope)
        .ok_or_else(|| EvidenceReadError::NotFound(id.as_str().to_owned()))
}

/// Which of `ids` have signed evidence, in one question to the store (none when the console
/// signs nothing; none, logged, when the store cannot answer: a page still shows).
pub async fn attested(state: &AppState, ids: &[DeployId]) -> HashSet<DeployId> {
    let Some(evidence) = state.evidence() else {
        return HashSet::new();
    };
    if ids.is_empty() {
        return HashSet::new();
    }
    evidence.store.attested(ids).await.unwrap_or_else(|error| {
        tracing::warn!(%error, "which deploys have evidence could not be read");
        HashSet::new()
    })
}

/// The public keys an auditor verifies with (the current first), none when the console
/// signs nothing.
pub fn keys(state: &AppState) -> Vec<PublishedKey> {
    state.evidence().map(|e| e.keys.clone()).unwrap_or_default()
}
