//! Pulp's HTTP transport: how to reach Pulp (`settings`: address, credentials, timeouts), requests
//! over hyper-util (TLS, timeouts, correlation ids) and their labels in the metrics, the login
//! session renewed when it lapses, HTTP statuses and Pulp's error bodies turned into errors an
//! operator can act on (`errors`), and reads remembered for the length of a page. It is the
//! ground floor of the Pulp adapter: it imports nothing of the client above it (reading
//! Pulp's lists page by page is the client's, in `pulp/pagination.rs`).

pub mod errors;
pub mod http;
pub mod memo;
pub mod operation;
pub mod session;
pub mod settings;
#[cfg(test)]
mod tls_tests;
