//! The evidence signer port: the key that signs each promotion's attestation (see
//! [`crate::domain::evidence`]).

/// Signs evidence with the console's private key.
pub trait EvidenceSigner: Send + Sync {
    /// The key's id, each signature's `keyid` (`[evidence] key_id`).
    fn key_id(&self) -> &str;

    /// The signature of `message` (DSSE's pre-authentication encoding of the payload).
    fn sign(&self, message: &[u8]) -> Vec<u8>;
}

/// A public key an auditor verifies evidence with: its id and its PEM text
/// (`-----BEGIN PUBLIC KEY-----`, SubjectPublicKeyInfo).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishedKey {
    pub key_id: String,
    pub pem: String,
    /// The key signing now (the others are kept after a rotation, for older evidence).
    pub current: bool,
}
