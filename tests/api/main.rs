//! HTTP tests over a real socket, against the in-memory upstream.

#[path = "../common/acme.rs"]
mod acme;
mod approvals;
mod audit;
mod audit_chain;
#[path = "../common/audit_chain_contract.rs"]
mod audit_chain_contract;
mod audit_verify_command;
mod authority;
#[path = "../common/builds.rs"]
mod builds;
mod builds_diff;
mod catch_up;
mod changes;
#[path = "../common/check_contract.rs"]
mod check_contract;
mod check_store;
mod checks;
mod coalescing;
mod command_line;
mod compare_download;
mod compare_filter;
#[path = "../common/console_process.rs"]
mod console_process;
#[path = "../common/counting.rs"]
mod counting;
mod dashboard;
mod deploy;
mod deploy_outlives;
mod diff_ahead;
mod diff_compose;
mod diff_store;
mod drift_reconciler;
mod drift_record;
mod edge_hosts;
mod edge_limits;
#[path = "../common/edge_state_contract.rs"]
mod edge_state_contract;
mod edge_state_store;
mod edges;
mod environments;
mod events;
mod evidence;
#[path = "../common/evidence_contract.rs"]
mod evidence_contract;
mod evidence_store;
mod exposure;
#[path = "../common/exposure_world.rs"]
mod exposure_world;
mod fault_matrix;
mod first_run;
mod helpers;
mod history;
mod host_tools;
mod hostile;
mod identity;
mod identity_attacks;
mod identity_keys;
mod insights;
#[path = "../common/insights_world.rs"]
mod insights_world;
mod json_api;
mod json_logs;
mod logs;
mod metrics;
mod navigation;
#[path = "../common/needs.rs"]
mod needs;
mod oidc;
mod oidc_hostile;
#[path = "../common/oidc_provider.rs"]
mod oidc_provider;
mod openapi_valid;
mod outage;
mod outbox;
#[path = "../common/outbox_contract.rs"]
mod outbox_contract;
mod pages;
#[path = "../common/pin_contract.rs"]
mod pin_contract;
mod pin_store;
mod pins;
mod policy;
mod races;
mod readiness;
#[path = "../common/receiver.rs"]
mod receiver;
mod release_pages;
mod releases;
mod replica_lock;
#[path = "../common/request_contract.rs"]
mod request_contract;
mod request_store;
mod requests_paging;
mod reverse_proxy;
mod rollback;
#[path = "../common/schedule_contract.rs"]
mod schedule_contract;
mod schedule_store;
mod schedules;
mod screens;
#[path = "../common/session_contract.rs"]
mod session_contract;
mod session_store;
mod shutdown;
mod soak;
mod systemd_unit;
#[path = "../common/test_app/mod.rs"]
mod test_app;
#[path = "../common/tokens.rs"]
mod tokens;
mod unknown_repository;
mod unsigned_metadata;
mod usecases;
#[path = "../common/verified.rs"]
mod verified;
#[path = "../common/web.rs"]
mod web;
mod webhook_delivery;
mod webhook_restart;
mod webhook_signatures;
mod write_limit;
