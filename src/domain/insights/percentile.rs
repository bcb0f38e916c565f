//! Percentiles by the nearest-rank method: the p-th percentile of n values sorted ascending
//! is the value at rank ⌈p/100 × n⌉ (counting from 1). It is always one of the values
//! measured, never an interpolation, so a median of two lead times is the shorter one.

use serde::Serialize;

/// The nearest-rank `p`-th percentile (0 < p ≤ 100) of `sorted` (ascending); `None` when
/// there are no values.
pub fn nearest_rank(sorted: &[i64], p: u32) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let n = sorted.len() as u64;
    let rank = (u64::from(p.clamp(1, 100)) * n).div_ceil(100).max(1);
    sorted.get(usize::try_from(rank - 1).ok()?).copied()
}

/// The median and the 90th percentile of some durations, in seconds (null when nothing was
/// measured).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Spread {
    pub median: Option<i64>,
    pub p90: Option<i64>,
}

impl Spread {
    /// The spread of `values` (in any order).
    pub fn of(mut values: Vec<i64>) -> Self {
        values.sort_unstable();
        Self {
            median: nearest_rank(&values, 50),
            p90: nearest_rank(&values, 90),
        }
    }
}
