//! An envelope opened against the keys an auditor trusts, and several as a chain.

use crate::domain::audit_chain::link::Sha256Hex;
use crate::domain::evidence::dsse::{Envelope, Signature, IN_TOTO_PAYLOAD_TYPE};
use crate::domain::evidence::statement::{Statement, PREDICATE_TYPE, STATEMENT_TYPE};

/// What a signature check found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureVerdict {
    /// Made by the key its `keyid` names.
    Valid,
    /// Its key is known, but the signature does not match the bytes.
    Invalid,
    /// No trusted key has its `keyid`.
    UnknownKey,
}

/// Why evidence is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvidenceRefusal {
    #[error("the envelope's payloadType is '{0}', not {IN_TOTO_PAYLOAD_TYPE}")]
    NotInToto(String),
    #[error("no signature is by a trusted key (the envelope's keyids: {0}); pass the public key of the console that signed it")]
    UnknownKeys(String),
    #[error("the signature by key '{0}' does not match the payload: the evidence was changed after it was signed, or signed by another key")]
    BadSignature(String),
    #[error("the payload is not an in-toto Statement v1 of a promotion: {0}")]
    NotAStatement(String),
    #[error("the chain is broken at {file}: its predicate names the previous attestation {named}, but the one before it in the chain is {found}")]
    ChainBroken {
        file: String,
        named: String,
        found: String,
    },
    #[error("the subject digest is {attested}, but the distribution serves {served} now (repodata/repomd.xml at {url})")]
    SubjectMoved {
        attested: String,
        served: String,
        url: String,
    },
}

/// The statement of `envelope` when at least one signature is valid by a trusted key
/// (`check` answers for each signature over the envelope's pre-authentication encoding).
pub fn open(
    envelope: &Envelope,
    check: impl Fn(&Signature, &[u8]) -> SignatureVerdict,
) -> Result<Statement, EvidenceRefusal> {
    if envelope.payload_type != IN_TOTO_PAYLOAD_TYPE {
        return Err(EvidenceRefusal::NotInToto(envelope.payload_type.clone()));
    }
    let signed = envelope.signed_bytes();
    let mut invalid = None;
    let mut valid = false;
    for signature in &envelope.signatures {
        match check(signature, &signed) {
            SignatureVerdict::Valid => valid = true,
            SignatureVerdict::Invalid => invalid = Some(signature.keyid.clone()),
            SignatureVerdict::UnknownKey => {}
        }
    }
    if !valid {
        return Err(match invalid {
            Some(keyid) => EvidenceRefusal::BadSignature(keyid),
            None => EvidenceRefusal::UnknownKeys(
                envelope
                    .signatures
                    .iter()
                    .map(|s| s.keyid.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        });
    }
    let statement: Statement = serde_json::from_slice(&envelope.payload)
        .map_err(|e| EvidenceRefusal::NotAStatement(e.to_string()))?;
    if statement.statement_type != STATEMENT_TYPE || statement.predicate_type != PREDICATE_TYPE {
        return Err(EvidenceRefusal::NotAStatement(format!(
            "_type '{}', predicateType '{}'",
            statement.statement_type, statement.predicate_type
        )));
    }
    Ok(statement)
}

/// The SHA-256 a later attestation names its previous one by: of the envelope's payload.
pub fn payload_sha256(envelope: &Envelope) -> Sha256Hex {
    Sha256Hex::of(&envelope.payload)
}

/// Checks that each attestation names the one before it of the same subject (files in the
/// order given, each `(name, envelope, statement)`); the first of each subject is the chain's
/// start as far as these files go.
pub fn check_chain(opened: &[(String, &Envelope, &Statement)]) -> Result<(), EvidenceRefusal> {
    for (i, (file, _, statement)) in opened.iter().enumerate() {
        let subject = statement.subject.first().map(|s| s.name.as_str());
        let before = opened[..i]
            .iter()
            .rev()
            .find(|(_, _, s)| s.subject.first().map(|s| s.name.as_str()) == subject);
        let Some((_, previous, _)) = before else {
            continue;
        };
        let found = payload_sha256(previous);
        let named = statement.predicate.previous.as_ref();
        if named.map(|p| &p.payload_sha256) != Some(&found) {
            return Err(EvidenceRefusal::ChainBroken {
                file: file.clone(),
                named: named.map_or("none".to_owned(), |p| p.payload_sha256.to_string()),
                found: found.to_string(),
            });
        }
    }
    Ok(())
}
