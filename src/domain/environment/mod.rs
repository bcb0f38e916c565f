//! Environments: the ordered path a version goes through, how each names its distribution,
//! and the promotion rules of that order.

pub mod path;
