//! The median time of an async call over a number of runs, as the benchmarks print it.
//! Included with `#[path]`.

use std::time::{Duration, Instant};

/// The median of `runs` timings of `run`.
pub async fn median_of<T>(runs: usize, mut run: impl AsyncFnMut() -> T) -> Duration {
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        run().await;
        samples.push(started.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}
