//! Views: plain functions that return `Markup`. Every value is escaped by maud.

pub mod banners;
pub mod changes;
pub mod client_checks;
pub mod compare;
mod compare_filter;
pub mod compare_links;
pub mod dashboard;
pub mod deploy;
pub mod environments;
pub mod history;
pub mod layout;
pub mod moment;
mod preview;
pub mod requests;
pub mod sync_cell;
mod version_anchor;
pub mod versions;
