//! What signing a promotion's evidence needs (see [`crate::app::evidence`]), held by the
//! state: the key, where attestations are kept, what reads the served metadata, the policy's
//! digest, and every public key to publish.

use std::sync::Arc;

use crate::domain::evidence::predicate::PolicyFacts;
use crate::ports::evidence_signer::{EvidenceSigner, PublishedKey};
use crate::ports::evidence_store::EvidenceStore;
use crate::ports::served_metadata::ServedMetadata;

pub struct EvidenceSigning {
    pub signer: Arc<dyn EvidenceSigner>,
    pub store: Arc<dyn EvidenceStore>,
    pub served: Arc<dyn ServedMetadata>,
    pub policy: PolicyFacts,
    /// The current key first, then those kept after a rotation.
    pub keys: Vec<PublishedKey>,
}
