//! Use cases of releases: what the release page shows ([`view`]), the confirm step of a
//! promotion ([`preview`]), and the promotion of a set, all members or none ([`promote`]):
//! every member published first, then their distributions moved one by one in the
//! release's order, the moved ones put back when one fails ([`restore`]), one record.

pub(crate) mod members;
pub mod outcome;
pub mod preview;
pub mod promote;
pub(crate) mod restore;
pub(crate) mod steps;
pub mod view;

pub use members::{Member, Members};
pub use outcome::{ReleaseEnded, ReleaseOutcome};
pub use promote::promote;
