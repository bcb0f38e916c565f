//! `Ed25519Signer` (the port [`EvidenceSigner`]) and `Ed25519PublicKey`, which checks
//! signatures for the verifier and names the key published at `/api/v1/evidence/keys`.

use ring::signature::{Ed25519KeyPair, KeyPair, UnparsedPublicKey, ED25519};

use crate::domain::evidence::dsse::Signature;
use crate::domain::evidence::verify::SignatureVerdict;
use crate::ports::evidence_signer::{EvidenceSigner, PublishedKey};

use super::pem;

/// The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), before the 32 key bytes.
const SPKI_PREFIX: [u8; 12] = [
    0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
];

/// The console's signing key.
pub struct Ed25519Signer {
    key: Ed25519KeyPair,
    key_id: String,
}

impl Ed25519Signer {
    /// The key of a PKCS#8 PEM file's text (`-----BEGIN PRIVATE KEY-----`).
    pub fn from_pem(text: &str, key_id: &str) -> Result<Self, String> {
        let der = pem::decode(text, "PRIVATE KEY")?;
        let key = Ed25519KeyPair::from_pkcs8_maybe_unchecked(&der).map_err(|_| {
            "the PRIVATE KEY block is not an Ed25519 key in PKCS#8 (make one with \
             `openssl genpkey -algorithm ed25519 -out evidence.pem`)"
                .to_owned()
        })?;
        Ok(Self {
            key,
            key_id: key_id.to_owned(),
        })
    }

    /// The public half, to publish and to verify with.
    pub fn public_key(&self) -> Ed25519PublicKey {
        Ed25519PublicKey {
            key_id: self.key_id.clone(),
            bytes: self.key.public_key().as_ref().to_vec(),
        }
    }
}

impl EvidenceSigner for Ed25519Signer {
    fn key_id(&self) -> &str {
        &self.key_id
    }

    fn sign(&self, message: &[u8]) -> Vec<u8> {
        self.key.sign(message).as_ref().to_vec()
    }
}

/// A public key and its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ed25519PublicKey {
    pub key_id: String,
    bytes: Vec<u8>,
}

impl Ed25519PublicKey {
    /// The key of a PEM file's text (`-----BEGIN PUBLIC KEY-----`, as `openssl pkey -pubout`
    /// writes it).
    pub fn from_pem(text: &str, key_id: &str) -> Result<Self, String> {
        let der = pem::decode(text, "PUBLIC KEY")?;
        let bytes = der
            .strip_prefix(&SPKI_PREFIX[..])
            .filter(|key| key.len() == 32)
            .ok_or("the PUBLIC KEY block is not an Ed25519 key")?;
        Ok(Self {
            key_id: key_id.to_owned(),
            bytes: bytes.to_vec(),
        })
    }

    /// The key as PEM (SubjectPublicKeyInfo).
    pub fn to_pem(&self) -> String {
        let mut der = SPKI_PREFIX.to_vec();
        der.extend_from_slice(&self.bytes);
        pem::encode(&der, "PUBLIC KEY")
    }

    pub fn published(&self, current: bool) -> PublishedKey {
        PublishedKey {
            key_id: self.key_id.clone(),
            pem: self.to_pem(),
            current,
        }
    }

    /// Whether `sig` is this key's signature of `message`.
    pub fn verifies(&self, message: &[u8], sig: &[u8]) -> bool {
        UnparsedPublicKey::new(&ED25519, &self.bytes)
            .verify(message, sig)
            .is_ok()
    }
}

/// The verdict on `signature` of `message` by the trusted `keys` (found by `keyid`; a key
/// given without an id, `*`, is tried for any).
pub fn check_signature(
    keys: &[Ed25519PublicKey],
    signature: &Signature,
    message: &[u8],
) -> SignatureVerdict {
    let candidates: Vec<&Ed25519PublicKey> = keys
        .iter()
        .filter(|k| k.key_id == signature.keyid || k.key_id == "*")
        .collect();
    if candidates.is_empty() {
        SignatureVerdict::UnknownKey
    } else if candidates
        .iter()
        .any(|k| k.verifies(message, &signature.sig))
    {
        SignatureVerdict::Valid
    } else {
        SignatureVerdict::Invalid
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key as `openssl genpkey -algorithm ed25519` writes it (PKCS#8 v1), and its public
    /// half as `openssl pkey -pubout` writes it: RFC 8410's example key.
    const PRIVATE: &str = "-----BEGIN PRIVATE KEY-----\n\
        MC4CAQAwBQYDK2VwBCIEINTuctv5E1hK1bbY8fdp+K06/nwoy/HU++CXqI9EdVhC\n\
        -----END PRIVATE KEY-----\n";
    const PUBLIC: &str = "-----BEGIN PUBLIC KEY-----\n\
        MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n\
        -----END PUBLIC KEY-----\n";

    #[test]
    fn an_openssl_key_signs_and_its_published_half_verifies() {
        let signer = Ed25519Signer::from_pem(PRIVATE, "console-2026").unwrap();
        assert_eq!(signer.public_key().to_pem(), PUBLIC);
        let public = Ed25519PublicKey::from_pem(PUBLIC, "console-2026").unwrap();
        let sig = signer.sign(b"DSSEv1 1 t 1 x");
        assert!(public.verifies(b"DSSEv1 1 t 1 x", &sig));
        assert!(!public.verifies(b"DSSEv1 1 t 1 y", &sig), "another message");
        let signature = Signature {
            keyid: "console-2026".into(),
            sig: sig.clone(),
        };
        assert_eq!(
            check_signature(std::slice::from_ref(&public), &signature, b"DSSEv1 1 t 1 x"),
            SignatureVerdict::Valid
        );
        assert_eq!(
            check_signature(&[public], &signature, b"changed"),
            SignatureVerdict::Invalid
        );
    }

    #[test]
    fn a_key_that_is_not_ed25519_pkcs8_is_refused_saying_how_to_make_one() {
        let refused = Ed25519Signer::from_pem(PUBLIC, "k").err().unwrap();
        assert!(refused.contains("PRIVATE KEY"), "{refused}");
        let garbled = PRIVATE.replace("MC4CAQAw", "MC4CAQEw");
        let refused = Ed25519Signer::from_pem(&garbled, "k").err().unwrap();
        assert!(refused.contains("openssl genpkey"), "{refused}");
        assert!(Ed25519PublicKey::from_pem(PRIVATE, "k").is_err());
    }
}
