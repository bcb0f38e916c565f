//! Moments (times) as an operator reads them on every page.

use chrono::{DateTime, Utc};
use maud::{html, Markup};

/// A moment as a `<time>` element: readable text, machine-readable `datetime`.
pub fn time(at: &DateTime<Utc>) -> Markup {
    html! { time datetime=(at.to_rfc3339()) { (shown(at)) } }
}

/// A moment as the operator reads it, to the second.
pub fn shown(at: &DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}
