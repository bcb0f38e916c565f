//! What the benchmarks share to print their figures: medians, milliseconds, the process's
//! peak memory, and the test Pulp's settings from the environment. Included with `#[path]`.

#![allow(dead_code)] // each benchmark uses its own part

use std::time::Duration;

/// A variable `source target/pulp/env` sets (scripts/pulp/up.sh).
pub fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| {
        panic!("{name} is not set: `source target/pulp/env` (scripts/pulp/up.sh) first")
    })
}

pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

pub fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

/// This process's peak resident memory (VmHWM), in MiB.
pub fn peak_rss_mib() -> f64 {
    status_mib("VmHWM")
}

/// A memory field of /proc/self/status (`VmRSS`, `VmHWM`…), in MiB; 0 when unreadable.
pub fn status_mib(field: &str) -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with(field))?.to_owned();
            line.split_whitespace().nth(1)?.parse::<f64>().ok()
        })
        .map_or(0.0, |kib| kib / 1024.0)
}
