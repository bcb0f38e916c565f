//! Releases (their names and promotion ids live in `domain::ids`, below the deploy that
//! records them): several repositories promoted as one unit through the same environments, all
//! of them or none. A release names its members ([`catalog`]); a promotion asks for one
//! version of each ([`ask`]); what each member's environment serves after it is told by
//! [`outcome`], and kept as one record ([`record`]), against which a member that moved on
//! its own is flagged ([`drift`]). What the next environment would receive is [`set`].

pub mod ask;
pub mod catalog;
pub mod drift;
pub mod outcome;
pub mod record;
pub mod refusal;
pub mod set;

pub use ask::{ReleaseAsk, ReleaseConfirmation};
pub use catalog::{InvalidRelease, Release, Releases};
pub use drift::{release_drift, MemberDrift};
pub use outcome::{after_restore, MemberOutcome, ServedSet};
pub use record::{MemberLine, ReleaseLine, ReleaseRecord};
pub use refusal::ReleaseRefusal;
pub use set::{proposed_set, ProposedSet};
