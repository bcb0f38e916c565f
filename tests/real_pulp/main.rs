//! Tests of `PulpClient` against a real Pulp 3 (see scripts/pulp/up.sh), plus the
//! `RepositoryManager` contract run against both the real Pulp and `InMemoryPulp`.
//!
//! Which Pulp: `RC_TEST_PULP_URL`, `RC_TEST_PULP_USERNAME`,
//! `RC_TEST_PULP_PASSWORD`, or else `target/pulp/env` of this checkout.
//! Each test that needs the real Pulp or its PostgreSQL carries `#[ignore = "needs ..."]`: a
//! plain `cargo test` lists it as ignored; `scripts/test.sh` (or `-- --include-ignored`) runs
//! it, and then a missing service fails it (`tests/common/needs.rs`).

#[path = "../common/acme.rs"]
mod acme;
mod api;
mod apt;
mod apt_approvals_schedules;
mod apt_signed;
#[path = "../common/audit_chain_contract.rs"]
mod audit_chain_contract;
mod book_commands;
#[path = "../common/builds.rs"]
mod builds;
mod builds_diff;
mod changes;
#[path = "../common/check_contract.rs"]
mod check_contract;
mod checks;
mod client;
mod console;
mod console_dashboard;
#[path = "../common/console_process.rs"]
mod console_process;
mod console_versions;
mod contract;
#[path = "../common/counting.rs"]
mod counting;
mod database;
mod deploy;
mod dnf;
mod drift;
#[path = "../common/edge_state_contract.rs"]
mod edge_state_contract;
mod edge_states;
mod edges;
mod environments;
mod evidence;
#[path = "../common/evidence_contract.rs"]
mod evidence_contract;
mod exposure;
mod history;
#[path = "../api/host_tools.rs"]
mod host_tools;
#[path = "../common/insights_world.rs"]
mod insights_world;
mod memory;
#[path = "../common/needs.rs"]
mod needs;
mod outbox;
#[path = "../common/outbox_contract.rs"]
mod outbox_contract;
#[path = "../common/pin_contract.rs"]
mod pin_contract;
mod pins;
mod policy;
mod postgres;
mod postgres_audit_chain;
mod postgres_evidence;
mod postgres_insights;
mod postgres_pins;
#[path = "../common/receiver.rs"]
mod receiver;
mod refusing_proxy;
mod releases;
mod replicas;
#[path = "../common/request_contract.rs"]
mod request_contract;
#[path = "../common/schedule_contract.rs"]
mod schedule_contract;
mod schedules;
mod seeded;
#[path = "../common/session_contract.rs"]
mod session_contract;
mod sessions;
mod support;
#[path = "../common/test_app/mod.rs"]
mod test_app;
mod token_scopes;
#[path = "../common/tokens.rs"]
mod tokens;
#[path = "../common/web.rs"]
mod web;
