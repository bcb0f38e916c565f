//! The ids several features share, below all of them: a deploy's record names the request,
//! the schedule and the release it came from, and those features name the deploy back, so
//! their ids live here, one concept per file, and every feature room imports them downward.
//! Nothing here knows a feature's rules: an id is parsed, shown and compared, nothing more.

pub mod release_id;
pub mod release_name;
pub mod request_id;
pub mod schedule_id;
pub mod url_id;

pub use release_id::{ReleaseId, ReleaseRef};
pub use release_name::ReleaseName;
pub use request_id::{RequestId, UnreadableRequest};
pub use schedule_id::ScheduleId;
