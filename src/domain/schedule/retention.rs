//! How long ended schedules are kept (`schedules.retention_days`): a schedule that ended
//! (done, failed, cancelled or refused) longer ago than the retention is pruned from the
//! schedule store. A waiting or running one is never pruned, however old, nor one whose
//! record cannot be read; the audit log keeps every deploy a schedule ran.

use chrono::{DateTime, Utc};

use super::model::{Schedule, ScheduleState};

/// When `schedule` ended; `None` while it is open.
pub fn ended_at(schedule: &Schedule) -> Option<DateTime<Utc>> {
    match &schedule.state {
        ScheduleState::Waiting | ScheduleState::Running { .. } => None,
        ScheduleState::Done { ended, .. }
        | ScheduleState::Failed { ended, .. }
        | ScheduleState::Cancelled { ended, .. }
        | ScheduleState::Refused { ended, .. } => Some(*ended),
    }
}

/// Whether `schedule` may be pruned when the retention keeps what ended at or after
/// `kept_from`.
pub fn prunable(schedule: &Schedule, kept_from: DateTime<Utc>) -> bool {
    ended_at(schedule).is_some_and(|ended| ended < kept_from)
}
