//! HTTP tests over a real socket, against the in-memory upstream.

#[path = "../common/acme.rs"]
mod acme;
mod audit;
mod changes;
mod coalescing;
mod dashboard;
mod deploy;
mod edge_hosts;
mod edge_limits;
mod fault_matrix;
mod helpers;
mod history;
mod hostile;
mod logs;
mod outage;
mod pages;
mod races;
mod rollback;
mod shutdown;
mod unknown_repository;
mod usecases;
#[path = "../common/web.rs"]
mod web;
