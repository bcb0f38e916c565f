//! Pulp's HTTP transport: requests over hyper-util (TLS, timeouts, correlation ids) and their
//! labels in the metrics, the
//! login session renewed when it lapses, pagination of Pulp's lists, and reads remembered for
//! the length of a page.

pub mod http;
pub mod memo;
pub mod operation;
pub mod pagination;
pub mod session;
#[cfg(test)]
mod tls_tests;
