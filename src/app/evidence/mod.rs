//! Signed evidence of promotions (see [`crate::domain::evidence`]): one entry point,
//! [`attest`], called after a deploy's outcome line is written (a single deploy, each member
//! of a release, a rollback, a schedule, an approved request, an automatic promotion all end
//! there); the attestation read back for the JSON API ([`read`]); the public keys an auditor
//! verifies with; and what signing needs, the state's part the composition root gives
//! ([`signing`]).
//!
//! Evidence never holds or fails a deploy: the deploy happened and its audit line says so; a
//! signature that could not be made or kept is logged at `error` (and the deploy's evidence is
//! then missing, which the API says).

pub mod attest;
pub mod read;
pub mod signing;

pub use attest::{attest, sign};
pub use read::{attested, keys, of_deploy, EvidenceReadError};
pub use signing::EvidenceSigning;
