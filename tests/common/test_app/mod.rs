//! One test harness for every suite: [`TestApp::builder`] stands the console up on
//! 127.0.0.1:0 (through the whole HTTP edge, as the binary serves) over an in-memory Pulp
//! (with faults) or any other upstream, with the policy, clock, identity, API tokens,
//! request store, audit sink, environments and edge settings a test asks for. Included with
//! `#[path]` by the API, browser and real-Pulp suites.
//!
//! - `builder.rs`: what a test may set, each with its default;
//! - `standing.rs`: the console built from it, its state and handles, served or not yet;
//! - `served.rs`: a console serving, its handles, and what a test reads back from it;
//! - `requests.rs`: the requests the console's pages send (forms as htmx posts them).

#![allow(dead_code)] // each binary uses its own part

mod builder;
mod requests;
mod served;
mod standing;

#[allow(unused_imports)] // each binary uses its own part
pub use builder::{clock_at, pinned_time, TestAppBuilder};
#[allow(unused_imports)]
pub use served::{serve, TestApp};
#[allow(unused_imports)]
pub use standing::Standing;
