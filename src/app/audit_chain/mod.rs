//! The audit log's hash chain watched (see [`crate::domain::audit_chain`]): the periodic
//! check of the sink's logs ([`check`]), and its last result and the heads it saw, the
//! state's part shared by the worker and `/readyz` ([`watch`]).

pub mod check;
pub mod watch;

pub use check::{check, work};
pub use watch::{ChainWatch, LastCheck};
