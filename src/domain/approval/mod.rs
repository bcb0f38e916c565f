//! Four-eyes approval: a deploy request, its events and the state they fold to, who may
//! approve, reject or cancel it (its id lives in `domain::ids`), how lists of requests are paged, and how long closed ones are kept.

pub mod listing;
pub mod request;
pub mod retention;

pub use request::{
    check_approval, check_cancel, check_reject, Actor, ApprovalRequest, ExecutionOutcome,
    ReleaseRequest, RequestEvent, RequestLog, RequestRefusal, RequestState, ScheduledFor,
};
