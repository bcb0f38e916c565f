//! The reads behind each page: the dashboard, a repository's versions, and its history.
//! Each costs a number of upstream calls that does not grow with Pulp.

pub mod dashboard;
pub mod history;
pub mod versions;
