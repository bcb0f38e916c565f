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
