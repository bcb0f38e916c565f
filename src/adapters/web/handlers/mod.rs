//! Handlers: extract, call one use case, render.

pub mod api_docs;
pub mod changes;
pub mod changes_download;
mod compare_query;
pub mod dashboard;
pub mod deploy;
pub mod edges;
pub mod exposure;
pub mod health;
pub mod history;
pub mod releases;
pub mod requests;
pub mod schedules;
pub mod sign_in;
pub mod sync;
pub mod versions;
