//! Evidence an auditor verifies offline: each promotion that moved something, signed as an
//! [in-toto Statement v1](https://github.com/in-toto/attestation/blob/main/spec/v1/statement.md)
//! in a [DSSE](https://github.com/secure-systems-lab/dsse/blob/master/envelope.md) envelope.
//!
//! - [`dsse`]: the envelope and the pre-authentication encoding its signatures cover;
//! - [`statement`]: the statement, its subject (the repository and environment, with the
//!   SHA-256 of the metadata clients fetch) and [`statement::PREDICATE_TYPE`];
//! - [`party`]: who acted, a person or an API token with its owner;
//! - [`predicate`]: what the promotion was: who, approved by whom, after which checks, through
//!   which overrides, under which policy, after which previous attestation (a chain per
//!   repository and environment);
//! - [`policy_digest`]: the policy in force as canonical JSON (RFC 8785), and its digest;
//! - [`verify`]: an envelope checked against public keys, and a sequence of them as a chain.
//!
//! Pure: the signature's arithmetic is a port's (`ports::evidence_signer`), reading what a
//! distribution serves an adapter's.

pub mod dsse;
pub mod party;
pub mod policy_digest;
pub mod predicate;
pub mod statement;
pub mod verify;
