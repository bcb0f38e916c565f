//! Exposure: where a package, an advisory or a CVE is served, across every repository and
//! environment. The question asked ([`query`]), the judgement of one served version
//! ([`judge`]: served, absent, affected, fixed, as dnf would install it), the states and
//! their counts ([`state`]), and the index from CVE to advisories that Pulp does not keep
//! ([`cve_index`]). Pure: the reads are the application's.

pub mod cve_index;
pub mod judge;
#[cfg(test)]
mod judge_tests;
pub mod query;
pub mod state;

pub use cve_index::{CveIndex, Fill, IndexedAdvisory};
pub use judge::{judge_advisories, judge_package, AdvisoryFix, Judgement};
pub use query::{BadExposureQuery, CveId, EvrBound, ExposureQuery, RawQuery};
pub use state::{count_states, counts_in_words, ExposureState};
