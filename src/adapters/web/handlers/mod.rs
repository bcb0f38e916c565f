//! Handlers: extract, call one use case, render.

pub mod dashboard;
pub mod health;
pub mod deploy;
pub mod sync;
pub mod versions;
