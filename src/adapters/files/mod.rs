//! The stores kept as files beside the audit file: the audit log (JSON Lines, appended under
//! a file lock, each line chained to the one before by its hash, its tail read back), the approval requests and the webhook outbox (JSON
//! Lines, compacted in place), the scheduled deploys (JSON Lines, a line per revision), the
//! checks pipelines report (JSON Lines), the signed evidence and the signed-in sessions and their
//! audit (JSON Lines), what the console knows of the edges (JSON Lines), the stored diffs (gzip'd JSON, a file each) and, in the diffs' directory, the
//! CVE index (one JSON file).

mod appending;
pub mod audit;
pub mod audit_chain;
mod audit_tail;
pub mod checks;
mod checks_index;
mod checks_line;
pub mod cve_index;
pub mod diff_store;
pub mod edge_states;
pub mod evidence;
pub mod outbox;
mod outbox_compaction;
mod outbox_line;
pub mod pins;
pub mod requests;
mod requests_index;
pub mod schedules;
mod schedules_index;
pub mod sessions;
mod tail;
