//! The anchor of a version's row on the versions page (`#v12`), which links from elsewhere
//! on the page and from other pages land on.

use crate::domain::repository::VersionNumber;

/// The anchor of a version's row (`v12`).
pub fn version_anchor(number: VersionNumber) -> String {
    format!("v{}", number.get())
}
