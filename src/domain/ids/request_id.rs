//! The name of an approval request.

use serde::{Deserialize, Serialize};

/// Names one request (a UUID, made by the application).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RequestId(String);

impl RequestId {
    /// A request id as found in a URL: letters, digits and `-`, 1 to 64 of them.
    pub fn parse(text: &str) -> Option<Self> {
        let ok = !text.is_empty()
            && text.len() <= 64
            && text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        ok.then(|| Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl crate::domain::record_keys::RecordId for RequestId {
    const WHAT: &'static str = "request";
}

/// A request's record (a line, a row) that cannot be read: the request is held (not shown as
/// a request, not acted on, not run) until an operator mends the record.
pub type UnreadableRequest = crate::domain::record_keys::Unreadable<RequestId>;

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
