//! repo-console: see the versions of Pulp 3 RPM and Debian repositories and deploy a verified one
//! to production, safely and traceably.
//!
//! Hexagonal layout: [`domain`] holds the rules (pure), [`ports`] the capabilities the
//! application needs, [`app`] the use cases, [`adapters`] the technology, and [`wiring`]
//! the composition root that builds the adapters from the configuration.

pub mod adapters;
pub mod app;
pub mod domain;
pub mod ports;
pub mod wiring;
