//! Tests that need an outside service (a real Pulp, its PostgreSQL, Chromium, nginx, systemd)
//! carry `#[ignore = "needs <service>"]`: a plain `cargo test` lists them as ignored, never as
//! a pass that did nothing. `scripts/test.sh` starts the services and runs them
//! (`-- --include-ignored`). A test asked to run without its service fails here, saying what
//! is missing and how to get it; with `CI=true` or not, it never passes by skipping.
//! Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

/// Fails the running test: `service` is missing (`why`, and how to get it).
pub fn missing(service: &str, why: &str) -> ! {
    panic!(
        "needs {service}: {why}. This test was asked to run (cargo test -- --include-ignored, \
         or scripts/test.sh, which starts what the tests need) and cannot run without it"
    )
}
