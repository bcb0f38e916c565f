//! The downloads: the compare page's whole comparison as JSON or CSV, streamed from the diff
//! already computed, and the exposure answer as CSV; every CSV cell goes through
//! [`csv_cell::neutralised`] (no cell starts like a spreadsheet formula).

mod attachment;
mod chunks;
mod csv_body;
mod csv_cell;
mod exposure_csv;
mod format;
mod json_body;

pub use attachment::{attachment, json_body};
pub use exposure_csv::exposure_csv;
pub use format::Format;
