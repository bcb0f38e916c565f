//! The application: use cases over the ports, a folder per feature. It depends on `domain`
//! and `ports` only; the composition root ([`crate::wiring`]) builds the adapters and hands
//! them in.
//!
//! - [`deploy`]: preview and deploy a version to an environment (every check, two upstream
//!   steps, the audit lines), and the rule that disables a page's deploy buttons;
//! - [`audit_chain`]: the periodic check of the audit log's hash chain;
//! - [`approvals`]: four-eyes requests: asking, approving, rejecting, cancelling;
//! - [`checks`]: checks pipelines report, and the promotions they trigger;
//! - [`diffs`]: what changes between two versions, computed, cached and stored ahead;
//! - [`edges`]: the edge Pulps that copy production, followed after every promotion;
//! - [`environments`]: what each environment serves and what it served;
//! - [`evidence`]: each promotion signed as an in-toto attestation, and its public keys;
//! - [`events`]: the events told to webhooks, their delivery, and the drift reconciler;
//! - [`exposure`]: where a package, an advisory or a CVE is served, and the CVE index;
//! - [`pins`]: what a rollback leaves behind, which automation and schedules respect;
//! - [`pages`]: the dashboard, versions and history pages' reads;
//! - [`releases`]: several repositories promoted as one unit, all or none;
//! - [`schedules`]: deploys scheduled for later, run once across replicas at their time;
//! - [`sign_in`]: signing in with an OpenID Connect provider, sessions and signing out;
//! - [`sync`]: synchronizing a repository; [`facts`]: reading upstream's facts at a cost that
//!   does not grow with Pulp; [`state`]: the ports every use case shares, and [`parts`]: each
//!   feature's own part of it, kept by type so that the state names no feature; [`write_limit`]: how
//!   many writes a caller may make a minute.

pub mod approvals;
pub mod audit_chain;
pub mod checks;
pub mod deploy;
pub mod diffs;
pub mod edges;
pub mod environments;
pub mod events;
pub mod evidence;
pub mod exposure;
pub mod facts;
pub mod insights;
pub mod pages;
pub mod parts;
pub mod pins;
pub mod promotion;
pub mod releases;
pub mod schedules;
pub mod sign_in;
pub mod state;
pub mod sync;
pub mod write_limit;

pub use diffs::cache::DiffCache;
pub use diffs::queue::DiffAhead;
pub use events::state::Events;
pub use promotion::lock::DeployLocks;
pub use state::AppState;
