//! Tasks of the in-memory Pulp: started now, their effect lands when their time has come
//! (as a Pulp worker would run them), with progress reports for synchronizations and publications.

use std::time::{Duration, Instant};

use chrono::Utc;

use super::state::{not_found, version_href, Effect, State, SyncScript, TaskEntry, API};
use crate::domain::repository::{RepoId, TaskHref};
use crate::domain::sync::{ProgressReport, TaskReport, TaskState};
use crate::ports::UpstreamError;

/// The user the console's requests run as in the in-memory Pulp.
pub const CONSOLE_USER: &str = "console";

impl State {
    /// Starts a task whose effect lands after `delay`.
    pub fn start_task(
        &mut self,
        delay: Duration,
        effect: Effect,
        repo: Option<RepoId>,
    ) -> TaskHref {
        let is_sync = matches!(effect, Effect::Sync { .. });
        let distribution = match &effect {
            Effect::PointDistribution { distribution, .. } => Some(distribution.clone()),
            _ => None,
        };
        let href = TaskHref::new(format!("{API}tasks/{}/", self.next_uuid()));
        let now = Instant::now();
        let entry = TaskEntry {
            started: now,
            ready_at: now + delay,
            effect: Some(effect),
            state: TaskState::Running,
            error: None,
            created: Vec::new(),
            repo,
            is_sync,
            seq: self.counter,
            created_at: Utc::now(),
            by: CONSOLE_USER.to_owned(),
            distribution,
            correlation: None,
        };
        self.tasks.insert(href.clone(), entry);
        href
    }

    /// Lands the effects of every task whose time has come, oldest first.
    pub fn settle(&mut self) {
        let now = Instant::now();
        let mut due: Vec<(u64, TaskHref)> = self
            .tasks
            .iter()
            .filter(|(_, t)| t.effect.is_some() && t.ready_at <= now)
            .map(|(h, t)| (t.seq, h.clone()))
            .collect();
        due.sort();
        for (_, href) in due {
            let effect = self.tasks.get_mut(&href).and_then(|t| t.effect.take());
            let result = effect.map(|e| self.apply(e));
            if let (Some(task), Some(result)) = (self.tasks.get_mut(&href), result) {
                match result {
                    Ok(created) => {
                        task.state = TaskState::Completed;
                        task.created = created;
                    }
                    Err(reason) => {
                        task.state = TaskState::Failed;
                        task.error = Some(reason);
                    }
                }
            }
        }
    }

    fn apply(&mut self, effect: Effect) -> Result<Vec<String>, String> {
        match effect {
            Effect::Publish { repo, number } => {
                let href = self.publish(&repo, number).map_err(|e| e.to_string())?;
                Ok(vec![href.as_str().to_owned()])
            }
            Effect::PointDistribution {
                distribution,
                publication,
            } => {
                let revision = self.next_revision();
                let entry = self
                    .distribution_mut(&distribution)
                    .map_err(|e| e.to_string())?;
                entry.dist.publication = Some(publication);
                entry.dist.revision = Some(revision);
                entry.repository = None;
                Ok(Vec::new())
            }
            Effect::Sync { repo, script } => match script {
                SyncScript::Fails { reason, .. } => Err(reason),
                // As Pulp: a sync that changes nothing makes no version and names none.
                SyncScript::Succeeds { add, remove, .. } if add.is_empty() && remove.is_empty() => {
                    Ok(Vec::new())
                }
                SyncScript::Succeeds { add, remove, .. } => {
                    let number = self
                        .add_version(&repo, &add, &remove, Utc::now())
                        .map_err(|e| e.to_string())?;
                    let entry = self.repo(&repo).map_err(|e| e.to_string())?;
                    Ok(vec![version_href(&entry.repo, number).as_str().to_owned()])
                }
            },
        }
    }

    pub fn task_report(&self, href: &TaskHref) -> Result<TaskReport, UpstreamError> {
        let task = self.tasks.get(href).ok_or_else(not_found("Task"))?;
        let progress = match (&task.effect, task.state) {
            (Some(Effect::Sync { script, .. }), TaskState::Running) => {
                sync_progress(script, task.started)
            }
            (Some(Effect::Publish { .. }), TaskState::Running) => publish_progress(),
            _ => Vec::new(),
        };
        Ok(TaskReport {
            href: href.clone(),
            state: task.state,
            progress,
            error: task.error.clone(),
            created_resources: task.created.clone(),
        })
    }
}

/// Progress of a simulated publication, as pulp_rpm reports it while it runs (measured on
/// pulpcore 3.123 with pulp_rpm 3.39: one report, 0 of 1 until the metadata is written).
fn publish_progress() -> Vec<ProgressReport> {
    vec![ProgressReport {
        code: "publish.generating_metadata".into(),
        message: "Generating repository metadata".into(),
        done: 0,
        total: Some(1),
    }]
}

/// Progress of a simulated sync: metadata first, then artifacts downloaded over time.
fn sync_progress(script: &SyncScript, started: Instant) -> Vec<ProgressReport> {
    let (duration, total) = match script {
        SyncScript::Succeeds { duration, add, .. } => (*duration, add.len() as u64),
        SyncScript::Fails { duration, .. } => (*duration, 0),
    };
    let elapsed = started.elapsed().as_secs_f64() / duration.as_secs_f64().max(0.001);
    let metadata = ProgressReport {
        code: "sync.downloading.metadata".into(),
        message: "Downloading Metadata Files".into(),
        done: 1,
        total: None,
    };
    if total == 0 {
        return vec![metadata];
    }
    let done = ((elapsed.min(1.0)) * total as f64) as u64;
    let artifacts = ProgressReport {
        code: "sync.downloading.artifacts".into(),
        message: "Downloading Artifacts".into(),
        done,
        total: Some(total),
    };
    vec![metadata, artifacts]
}
