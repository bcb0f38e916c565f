//! Four-eyes approval: a deploy request, its events and the state they fold to, who may
//! approve, reject or cancel it, its id, and how lists of requests are paged.

pub mod listing;
pub mod request;
pub mod request_id;
