//! What the console knows about each environment of a repository (testing, staging,
//! production… as configured; production alone without `[environments]`): which
//! distribution is the environment's, what it serves and how sure the console is
//! ([`serving`]), how its distributions are found upstream in a bounded number of calls
//! ([`lookup`]), what is recorded of its changes ([`record`]), what was seen of it last
//! ([`seen`]), and every environment of a dashboard page's rows ([`rows`]). The rules (the
//! path, out of order, which versions an environment served) are pure, in
//! [`crate::domain::environment::path`].

pub mod lookup;
pub mod record;
pub mod rows;
pub mod seen;
pub mod serving;

pub use lookup::{candidates, Candidates};
pub use record::{ProductionRecord, AUDIT_LINES};
pub use seen::SeenEnvironments;
pub use serving::{environments_of, some_environments_of, EnvironmentState};
