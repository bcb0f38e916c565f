//! The in-memory Pulp's record of distribution changes, as Pulp's `tasks/` has it: each
//! task that reserved a distribution, with its user, time and correlation id. Changes made
//! with [`InMemoryPulp::point_distribution`] are recorded as another user's.

use std::time::Duration;

use super::in_memory::InMemoryPulp;
use super::state::{Effect, State, TaskEntry};
use crate::domain::repository::{DistributionChange, DistributionHref, PublicationHref, TaskHref};

/// Who makes the changes the console did not make (an operator using pulp-cli).
pub const OUTSIDE_USER: &str = "outside-operator";

impl State {
    /// Records the request's correlation id (Pulp's `logging_cid`) on its task.
    pub fn correlate(&mut self, task: &TaskHref, correlation: Option<String>) {
        if let Some(entry) = self.tasks.get_mut(task) {
            entry.correlation = correlation;
        }
    }

    /// The newest tasks that reserved `distribution`, newest first.
    pub fn changes_of(
        &self,
        distribution: &DistributionHref,
        limit: u64,
    ) -> Vec<DistributionChange> {
        let mut tasks: Vec<(&TaskHref, &TaskEntry)> = self
            .tasks
            .iter()
            .filter(|(_, t)| t.distribution.as_ref() == Some(distribution))
            .collect();
        tasks.sort_by_key(|(_, task)| std::cmp::Reverse(task.seq));
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        tasks
            .into_iter()
            .take(limit)
            .map(|(href, t)| change(href, t))
            .collect()
    }
}

fn change(href: &TaskHref, task: &TaskEntry) -> DistributionChange {
    DistributionChange {
        at: task.created_at,
        by: task.by.clone(),
        task: href.clone(),
        correlation: task.correlation.clone(),
        state: task.state.into(),
    }
}

impl InMemoryPulp {
    /// Points a distribution at a publication at once, as [`OUTSIDE_USER`] (another
    /// operator, outside the console): Pulp records a task without correlation id, which
    /// has landed by the next look at the state.
    pub fn point_distribution(&self, name: &str, publication: &PublicationHref) {
        let mut state = self.lock();
        let Some(entry) = state.distributions.iter().find(|d| d.dist.name == name) else {
            return;
        };
        let effect = Effect::PointDistribution {
            distribution: entry.dist.href.clone(),
            publication: publication.clone(),
        };
        let task = state.start_task(Duration::ZERO, effect, None);
        if let Some(entry) = state.tasks.get_mut(&task) {
            entry.by = OUTSIDE_USER.to_owned();
        }
        state.settle();
    }
}
