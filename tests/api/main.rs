//! HTTP tests over a real socket, against the in-memory upstream.

mod audit;
mod dashboard;
mod deploy;
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
