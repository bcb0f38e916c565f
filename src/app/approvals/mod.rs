//! Four-eyes approval: a deploy that needs approvals is asked for ([`ask`]), then approved,
//! rejected or cancelled ([`requests`]); the approval that completes the count runs the deploy
//! through every check again, on behalf of the requester; [`waiting`] counts those an operator
//! may approve now.

pub(crate) mod ask;
mod ending;
pub(crate) mod one_open;
pub(crate) mod release_ask;
pub mod requests;
pub mod retention;
pub mod waiting;
