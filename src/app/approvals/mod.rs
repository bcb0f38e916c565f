//! Four-eyes approval: a deploy that needs approvals is asked for ([`asking`]), then approved,
//! rejected or cancelled ([`requests`]); the approval that completes the count runs the deploy
//! through every check again, on behalf of the requester; [`waiting`] counts those an operator
//! may approve now.

pub(crate) mod asking;
mod ending;
pub mod requests;
pub mod retention;
pub mod waiting;
