//! A pin: what a rollback leaves behind. Once an environment of a repository was rolled back,
//! it is pinned to the version the rollback restored, so that nothing moves it again by
//! itself: an automatic promotion or a schedule is refused (`pinned`), while a person's deploy
//! goes on and lifts the pin, and so does an explicit unpin with a reason.
//!
//! - `key.rs`: which pin a record concerns (a repository in an environment);
//! - `held.rs`: a pin as it holds ([`Pin`]) and its refusal;
//! - `record.rs`: what the pin store keeps, one record per fact (set, lifted, a move held
//!   back), and how the
//!   records of a key fold to the pin that holds now ([`standing`]).
//!
//! What each way of asking for a move does at a pin is a rule of the promotion value
//! (`domain::promotion`, [`crate::domain::promotion::AtPin`]).

mod held;
mod key;
mod record;

pub use held::Pin;
pub use key::{PinKey, UnreadablePin};
pub use record::{standing, Hold, Lift, LiftedBy, PinRecord};
