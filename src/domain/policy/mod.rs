//! Policy: who may synchronize, deploy and approve where (the gate), and when nobody may
//! (freeze windows, one-off or recurring, and their override), how long a version soaks in the
//! environment before (soak), which checks a version needs before it goes on (and when it goes
//! on by itself), where unsigned metadata passes verification (`metadata`), and how often anyone
//! may write (the write rate).

pub mod authority;
pub mod checks;
pub mod duration;
pub mod freeze;
pub mod gate;
pub mod metadata;
pub mod soak;
pub mod write_rate;

pub use authority::{ActorKind, Lapsed, RecordedAuthor, TokenRoster, TokenStanding};
pub use freeze::{
    active, Freeze, FreezeDuration, FreezeWindow, Interval, InvalidFreeze, Occurrence, Recurring,
    Until,
};
pub use gate::{
    Allowed, Approvals, Denied, Gate, GateRefusal, InvalidSubject, NotListed, Policy, Subject,
};
pub use soak::{check_soak, served_since, InvalidSoak, SoakTime, Soaking};
