//! Checks: what a pipeline reports about a repository version in an environment (a named
//! test run that passed or failed, with a link to the run), and the key a later report of
//! the same check replaces the earlier under; superseded reports pruned past their retention
//! ([`retention`]); and the required checks a version has not passed, as a refusal names them
//! ([`unmet`]).

pub mod report;
pub mod retention;
pub mod unmet;

pub use report::{
    latest_of, CheckKey, CheckName, CheckReport, CheckState, InvalidCheckName, InvalidRunUrl,
    PromotionKey, RunUrl, MAX_URL_LEN,
};
pub use unmet::Unmet;
