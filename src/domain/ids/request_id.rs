//! The name of an approval request.

use super::url_id::url_id;

url_id!(
    /// Names one request (a UUID, made by the application).
    RequestId,
    "request"
);

impl crate::domain::record_keys::RecordId for RequestId {
    const WHAT: &'static str = "request";
}

/// A request's record (a line, a row) that cannot be read: the request is held (not shown as
/// a request, not acted on, not run) until an operator mends the record.
pub type UnreadableRequest = crate::domain::record_keys::Unreadable<RequestId>;
