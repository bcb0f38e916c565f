//! What signing a promotion's evidence needs (see [`super`]), the state's part the
//! composition root gives: the key, where attestations are kept, what reads the served
//! metadata, the policy's digest, and every public key to publish.

use std::sync::Arc;

use crate::app::parts::StatePart;
use crate::app::state::AppStateBuilder;
use crate::app::AppState;
use crate::domain::evidence::predicate::PolicyFacts;
use crate::ports::evidence_signer::{EvidenceSigner, PublishedKey};
use crate::ports::evidence_store::EvidenceStore;
use crate::ports::served_metadata::ServedMetadata;

/// The key, the store, the served metadata's reader, the policy and the published keys.
pub struct EvidenceSigning {
    pub signer: Arc<dyn EvidenceSigner>,
    pub store: Arc<dyn EvidenceStore>,
    pub served: Arc<dyn ServedMetadata>,
    pub policy: PolicyFacts,
    /// The current key first, then those kept after a rotation.
    pub keys: Vec<PublishedKey>,
}

/// Given by the composition root when `[evidence] key_file` is set.
impl StatePart for EvidenceSigning {}

impl AppState {
    /// What signs each promotion's evidence; `None`: no evidence (no `[evidence] key_file`).
    pub fn evidence(&self) -> Option<Arc<EvidenceSigning>> {
        self.given()
    }
}

impl AppStateBuilder {
    /// Each promotion that moves something is signed by `evidence` (see [`super::attest`]).
    pub fn evidence(self, evidence: EvidenceSigning) -> Self {
        self.part(evidence)
    }
}
