//! Checks pipelines report (`POST /api/v1/checks`), about a version the environment serves or
//! has served ([`served`]): recorded where the requests are, read
//! back for the versions page and the API, and, where the environment after the check's
//! promotes by itself, the promotion the last required check's passing triggers (through
//! the deploy use case, its gates and its audit).

pub mod promote;
pub mod report;
pub mod retention;
pub mod served;

pub use promote::Promotion;
pub use report::{find_repository, latest, report, CheckAsk, ReadError, ReportError, Reported};
