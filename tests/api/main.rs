//! HTTP tests over a real socket, against the in-memory upstream.

mod audit;
#[path = "../common/console_process.rs"]
mod console_process;
mod dashboard;
mod deploy;
mod fault_matrix;
mod helpers;
mod hostile;
mod identity;
mod json_logs;
mod logs;
mod metrics;
mod outage;
mod pages;
mod races;
mod replica_lock;
mod shutdown;
mod unknown_repository;
mod usecases;
#[path = "../common/web.rs"]
mod web;
