//! Views: plain functions that return `Markup`. Every value is escaped by maud.

pub mod api_reference;
pub mod banners;
pub mod changes;
pub mod compare;
pub mod dashboard;
pub mod deploy;
pub mod edges;
pub mod environments;
pub mod error_page;
pub mod exposure;
pub mod history;
pub mod layout;
pub mod metrics;
pub mod modal;
pub mod moment;
pub mod pins;
pub mod releases;
pub mod requests;
pub mod schedules;
pub mod site_nav;
pub mod sync_cell;
mod version_anchor;
pub mod versions;
