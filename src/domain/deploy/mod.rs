//! A deploy: what was asked (the form's or the API's ask, the intent and its confirmation),
//! the plan and the preconditions checked against upstream's facts, the verdict on whether
//! production changed when a write failed, the refusals, and the record the audit log keeps.

pub mod ask;
pub mod intent;
pub mod plan;
pub mod progress;
pub mod record;
pub mod refusal;
pub mod verdict;
