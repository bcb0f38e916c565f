//! Adapters: the technology behind each port, and the web front.

pub mod audit_jsonl;
pub mod audit_stdout;
mod audit_tail;
pub mod clock_system;
pub mod coalescing;
pub mod diff_codec;
pub mod diff_files;
pub mod identity_bearer;
pub mod identity_fixed;
pub mod identity_proxy_header;
pub mod memory;
pub mod metrics;
pub mod outbox_jsonl;
pub mod outbox_ledger;
pub mod postgres;
pub mod pulp;
pub mod requests_jsonl;
pub mod task_outcome;
pub mod tls_roots;
pub mod web;
pub mod webhook;
