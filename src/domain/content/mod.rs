//! Content types: the kinds of repository the console serves (RPM, Debian), and one room per
//! type for the rules that belong to that type alone (how its versions are ordered, whether
//! it carries advisories). Everything outside these rooms and the Pulp adapter's table of
//! plugin paths names no content type: it asks the repository's [`ContentType`].

pub mod advisories;
pub mod deb;
pub mod kind;
pub mod order;
pub mod rpm;

pub use advisories::Advisories;
