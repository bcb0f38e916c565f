//! Production's history: every change of an environment's distribution, made through the
//! console or not, merged with the audit log; and drift (a change behind the console's back).

pub mod timeline;

pub use timeline::{
    build_history, detect_drift, drift_baseline, Drift, EntryOutcome, HistoryEntry, Origin,
};
