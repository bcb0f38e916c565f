//! The name of a schedule.

use super::url_id::url_id;

url_id!(
    /// Names one schedule (a UUID, made by the application).
    ScheduleId,
    "schedule"
);
