//! Exposure: where a package, an advisory or a CVE is served, across every repository and
//! environment, in one answer ([`ask`]). The environments come from
//! [`crate::app::environments::rows`] (as the dashboard's); each served version is read once,
//! filtered by the question's package names, and kept ([`reads`]: versions are immutable);
//! a CVE finds its advisories in the index Pulp does not have ([`index`], kept by [`keeper`]). The rules are pure,
//! in [`crate::domain::exposure`].

pub mod answer;
pub mod ask;
pub mod index;
pub mod keeper;
pub mod limit;
pub mod reads;

pub use answer::{ExposureAnswer, ExposureRow};
pub use ask::{exposure, ExposureError};
pub use keeper::CveIndexKeeper;
pub use reads::ExposureReads;
