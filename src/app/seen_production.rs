//! The production distribution each repository had when last read: a hint, so that a page
//! reads production's record at once with the rest (it is checked against production as
//! read, and read again when it was wrong). Never a fact a deploy relies on.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::domain::{DistributionHref, RepoId};

/// Repositories whose production distribution is remembered, at most (a hint only).
const SEEN_KEPT: usize = 10_000;

/// The production distribution of each repository when last read.
#[derive(Default)]
pub struct SeenProduction(Mutex<HashMap<RepoId, DistributionHref>>);

impl SeenProduction {
    pub(super) fn get(&self, id: &RepoId) -> Option<DistributionHref> {
        self.lock().get(id).cloned()
    }

    pub(super) fn set(&self, id: &RepoId, production: Option<DistributionHref>) {
        let mut seen = self.lock();
        match production {
            Some(href) => {
                if seen.len() >= SEEN_KEPT && !seen.contains_key(id) {
                    seen.clear();
                }
                seen.insert(id.clone(), href);
            }
            None => {
                seen.remove(id);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<RepoId, DistributionHref>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}
