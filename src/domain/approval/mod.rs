//! Four-eyes approval: a deploy request, its events and the state they fold to, who may
//! approve, reject or cancel it, its id, how lists of requests are paged, and how long closed ones are kept.

pub mod listing;
pub mod request;
pub mod request_id;
pub mod retention;
