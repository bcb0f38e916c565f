//! Four-eyes approval: a deploy request, its events and the state they fold to, who may
//! approve, reject or cancel it, and its id.

pub mod request;
pub mod request_id;
