//! HTTP tests over a real socket, against the in-memory upstream.

#[path = "../common/acme.rs"]
mod acme;
mod audit;
mod changes;
mod dashboard;
mod deploy;
mod fault_matrix;
mod helpers;
mod hostile;
mod outage;
mod pages;
mod races;
mod shutdown;
mod usecases;
#[path = "../common/web.rs"]
mod web;
