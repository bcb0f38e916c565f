//! Use cases of releases: what the release page shows ([`view`]), the confirm step of a
//! promotion ([`preview`]), and the promotion of a set, all members or none ([`promote`]),
//! which the promotion pipeline runs.

pub(crate) mod members;
pub mod outcome;
pub mod preview;
pub mod promote;
pub mod view;

pub use members::{Member, Members};
pub use outcome::{ReleaseEnded, ReleaseOutcome};
pub use promote::promote;
