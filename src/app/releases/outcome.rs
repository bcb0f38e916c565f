//! How a release promotion ended, or why it never started.

use crate::domain::approval::ApprovalRequest;
use crate::domain::release::{ReleaseRecord, ReleaseRefusal};
use crate::ports::AuditError;

use crate::app::deploy::NotStarted;

/// A promotion that moved something, or tried to: its record says, per member, what is true.
#[derive(Debug)]
pub struct ReleaseEnded {
    pub record: ReleaseRecord,
    /// Whether the release's line (and the members' outcome lines) were written.
    pub audit: Result<(), AuditError>,
}

#[derive(Debug)]
pub enum ReleaseOutcome {
    /// A precondition failed for the release or one member: nothing moved, nothing audited.
    Refused(ReleaseRefusal),
    /// The facts could not be read, or the audit or the lock is unavailable: nothing moved.
    NotStarted(NotStarted),
    /// The environment needs approvals: one request for the whole release was recorded.
    Requested(Box<ApprovalRequest>),
    /// Upstream was touched: see the record.
    Ended(Box<ReleaseEnded>),
}

impl From<ReleaseRefusal> for ReleaseOutcome {
    fn from(refusal: ReleaseRefusal) -> Self {
        Self::Refused(refusal)
    }
}
