//! Where a deploy under way is: the phase it reached, and what upstream said of the task
//! it waits for. What the confirm dialog and the versions page show while a deploy runs,
//! and what they show for a short while after it ended.

use chrono::{DateTime, Utc};

use crate::domain::deploy::{DeployId, ProductionChanged};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::repository::{RepoId, VersionNumber};
use crate::domain::sync::{ProgressReport, TaskReport};

/// How far a deploy got. The phases follow each other in this order; a deploy ends in one
/// of the last three.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeployPhase {
    /// The policy, the checks and the versions are being checked again (nothing changed).
    Checking,
    /// Pulp is creating the publication of the target version (production unchanged).
    Publishing(Option<StepProgress>),
    /// The environment's distribution is being pointed at the publication.
    Moving,
    /// The environment serves the target version.
    Deployed,
    /// Ended without moving anything, or a step failed: `production_changed` says what is
    /// true of the environment, as the deploy's outcome does.
    Ended {
        production_changed: ProductionChanged,
        summary: String,
    },
}

impl DeployPhase {
    /// Whether the deploy has ended (the phase will not change again).
    pub fn has_ended(&self) -> bool {
        matches!(self, Self::Deployed | Self::Ended { .. })
    }

    /// The position of the phase in a deploy's course (for the steps list: those before it
    /// are done).
    pub fn rank(&self) -> u8 {
        match self {
            Self::Checking => 0,
            Self::Publishing(_) => 1,
            Self::Moving => 2,
            Self::Deployed | Self::Ended { .. } => 3,
        }
    }
}

/// What an upstream task said of its work: the report that best shows progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepProgress {
    /// Upstream's words for what it is doing ("Generating repository metadata").
    pub message: String,
    pub done: u64,
    pub total: Option<u64>,
}

impl StepProgress {
    /// The report of `task` that best shows progress (the one with the largest known total,
    /// else the one that did the most); `None` when the task reported nothing yet.
    pub fn of_task(task: &TaskReport) -> Option<Self> {
        let reports = &task.progress;
        let with_total = reports
            .iter()
            .filter(|r| r.total.is_some_and(|t| t > 0))
            .max_by_key(|r| r.total);
        with_total
            .or_else(|| reports.iter().max_by_key(|r| r.done))
            .map(Self::of_report)
    }

    fn of_report(report: &ProgressReport) -> Self {
        Self {
            message: report.message.clone(),
            done: report.done,
            total: report.total,
        }
    }

    /// Whole percent done, when the total is known.
    pub fn percent(&self) -> Option<u64> {
        self.total
            .filter(|total| *total > 0)
            .map(|total| (self.done.min(total) * 100) / total)
    }
}

/// A deploy this console runs now (or ended moments ago).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnderWay {
    pub deploy_id: DeployId,
    pub repo: RepoId,
    pub environment: EnvironmentName,
    pub target: VersionNumber,
    /// Who asked for it (the person, token or automation the deploy runs for).
    pub operator: Operator,
    pub started_at: DateTime<Utc>,
    pub phase: DeployPhase,
    /// When it ended, once it has.
    pub ended_at: Option<DateTime<Utc>>,
}

impl UnderWay {
    /// Moves the deploy to `phase`, at `now` (the end is stamped once).
    pub fn reach(&mut self, phase: DeployPhase, now: DateTime<Utc>) {
        if self.phase.has_ended() {
            return;
        }
        if phase.has_ended() {
            self.ended_at = Some(now);
        }
        self.phase = phase;
    }

    /// Whether an ended deploy is still worth showing at `now` (for `linger` after its end).
    pub fn shown_at(&self, now: DateTime<Utc>, linger: chrono::Duration) -> bool {
        self.ended_at.is_none_or(|ended| now - ended <= linger)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::repository::TaskHref;
    use crate::domain::sync::TaskState;

    fn under_way() -> UnderWay {
        UnderWay {
            deploy_id: DeployId::new("d-1"),
            repo: RepoId::parse("0188a0a0-0000-7000-8000-000000000001").expect("a uuid"),
            environment: EnvironmentName::production(),
            target: VersionNumber::new(3),
            operator: Operator::new("alice").expect("a name"),
            started_at: DateTime::UNIX_EPOCH,
            phase: DeployPhase::Checking,
            ended_at: None,
        }
    }

    #[test]
    fn an_ended_deploy_keeps_its_end() {
        let mut deploy = under_way();
        let end = DateTime::UNIX_EPOCH + chrono::Duration::seconds(5);
        deploy.reach(DeployPhase::Publishing(None), DateTime::UNIX_EPOCH);
        deploy.reach(DeployPhase::Deployed, end);
        deploy.reach(DeployPhase::Moving, end + chrono::Duration::seconds(1));
        assert_eq!(deploy.phase, DeployPhase::Deployed);
        assert_eq!(deploy.ended_at, Some(end));
        let linger = chrono::Duration::seconds(60);
        assert!(deploy.shown_at(end + linger, linger));
        assert!(!deploy.shown_at(end + linger + chrono::Duration::seconds(1), linger));
    }

    #[test]
    fn a_running_deploy_is_always_shown() {
        let deploy = under_way();
        let much_later = DateTime::UNIX_EPOCH + chrono::Duration::days(2);
        assert!(deploy.shown_at(much_later, chrono::Duration::seconds(1)));
    }

    #[test]
    fn a_task_shows_its_report_with_the_largest_total() {
        let report = |message: &str, done, total| ProgressReport {
            code: message.into(),
            message: message.into(),
            done,
            total,
        };
        let task = TaskReport {
            href: TaskHref::new("/t/"),
            state: TaskState::Running,
            progress: vec![
                report("Publishing metadata", 1, Some(4)),
                report("Publishing packages", 30, Some(120)),
                report("Counting", 500, None),
            ],
            error: None,
            created_resources: Vec::new(),
        };
        let progress = StepProgress::of_task(&task).expect("a report");
        assert_eq!(progress.message, "Publishing packages");
        assert_eq!(progress.percent(), Some(25));
        let silent = TaskReport {
            progress: Vec::new(),
            ..task
        };
        assert_eq!(StepProgress::of_task(&silent), None);
    }

    #[test]
    fn percent_is_bounded_and_needs_a_total() {
        let of = |done, total| StepProgress {
            message: String::new(),
            done,
            total,
        };
        assert_eq!(of(7, None).percent(), None);
        assert_eq!(of(7, Some(0)).percent(), None);
        assert_eq!(of(9, Some(3)).percent(), Some(100));
    }
}
