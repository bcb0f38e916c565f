//! The compare page's downloads: the whole comparison as JSON or CSV, streamed from the diff
//! already computed.

mod attachment;
mod chunks;
mod csv_body;
mod format;
mod json_body;

pub use attachment::{attachment, json_body};
pub use format::Format;
