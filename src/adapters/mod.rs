//! Adapters: the technology behind each port, and the web front.

pub mod audit_stdout;
pub mod clock_system;
pub mod coalescing;
pub mod files;
pub mod identity;
pub mod memory;
pub mod metrics;
pub mod postgres;
pub mod pulp;
pub mod shared;
pub mod signing;
pub mod web;
pub mod webhook;
