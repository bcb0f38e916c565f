//! The pure core: the rules of versions, verification, deployment and audit.
//!
//! Nothing here performs I/O, reads a clock or knows about HTTP: every function takes
//! what it needs as arguments, so every rule is unit-tested in isolation.

pub mod approval;
pub mod audit_chain;
pub mod check;
pub mod content;
pub mod deploy;
pub mod diff;
pub mod edge;
pub mod environment;
pub mod event;
pub mod evidence;
pub mod exposure;
pub mod history;
pub mod identity;
pub mod ids;
pub mod insights;
pub mod pin;
pub mod policy;
pub mod promotion;
#[cfg(test)]
mod properties;
pub mod record_keys;
pub mod release;
pub mod repository;
pub mod schedule;
pub mod sync;
