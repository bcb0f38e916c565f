//! Handlers: extract, call one use case, render.

pub mod changes;
pub mod dashboard;
pub mod deploy;
pub mod health;
pub mod history;
pub mod sync;
pub mod versions;
