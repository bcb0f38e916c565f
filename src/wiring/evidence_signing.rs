//! The evidence signer from `[evidence]`: the private key read once at start, the older
//! public keys published beside it, the policy's digest; no key file, no evidence (said once).

use std::sync::Arc;

use crate::adapters::signing::ed25519::{Ed25519PublicKey, Ed25519Signer};
use crate::app::evidence::EvidenceSigning;
use crate::ports::evidence_store::EvidenceStore;
use crate::ports::served_metadata::ServedMetadata;
use crate::wiring::config::Config;

/// What signs the evidence, or `None` (said in the log) without `evidence.key_file`.
pub fn build(
    config: &Config,
    store: Arc<dyn EvidenceStore>,
    served: Arc<dyn ServedMetadata>,
) -> Result<Option<EvidenceSigning>, String> {
    let Some((key_file, key_id)) = &config.evidence.signing else {
        tracing::info!(
            "promotions are not signed: no evidence.key_file (see the book's Evidence for auditors)"
        );
        return Ok(None);
    };
    let text = std::fs::read_to_string(key_file)
        .map_err(|e| format!("cannot read evidence.key_file {}: {e}", key_file.display()))?;
    let signer = Ed25519Signer::from_pem(&text, key_id)
        .map_err(|e| format!("evidence.key_file {}: {e}", key_file.display()))?;
    let mut keys = vec![signer.public_key().published(true)];
    for (id, path) in &config.evidence.previous {
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!(
                "cannot read evidence.previous_public_keys {id}={}: {e}",
                path.display()
            )
        })?;
        let key = Ed25519PublicKey::from_pem(&text, id)
            .map_err(|e| format!("evidence.previous_public_keys {id}={}: {e}", path.display()))?;
        keys.push(key.published(false));
    }
    let policy = config.policy_facts.clone();
    tracing::info!(key_id = %key_id, policy_sha256 = %policy.sha256, store = %store.target(), kept_keys = keys.len() - 1, "promotions are signed as in-toto attestations");
    Ok(Some(EvidenceSigning {
        signer: Arc::new(signer),
        store,
        served,
        policy,
        keys,
    }))
}
