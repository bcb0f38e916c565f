//! The synchronization state of a repository, as the dashboard shows it.

use serde::Serialize;

use crate::domain::repository::{TaskHref, VersionNumber};

/// Progress of a running synchronization.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SyncProgress {
    pub done: u64,
    /// Unknown while upstream has not counted yet.
    pub total: Option<u64>,
}

impl SyncProgress {
    /// Whole percent, when the total is known and not zero.
    pub fn percent(&self) -> Option<u64> {
        match self.total {
            Some(total) if total > 0 => Some((self.done.min(total) * 100) / total),
            _ => None,
        }
    }

    /// `<done>/<total>·<percent>%`, or just `<done>` when the total is unknown.
    pub fn text(&self) -> String {
        match (self.total, self.percent()) {
            (Some(total), Some(pct)) => format!("{}/{}\u{b7}{}%", self.done, total, pct),
            _ => format!("{}\u{2026}", self.done),
        }
    }
}

/// The last synchronization of a repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum SyncState {
    /// Never synchronized (or no record of it).
    Idle,
    Running(SyncProgress),
    /// Finished; the version it produced, or none when nothing changed.
    Done(Option<VersionNumber>),
    Failed(SyncFailure),
}

/// A synchronization that failed (or was canceled): why in the console's words, upstream's
/// own description (for the log only: it can name internal hosts), and upstream's task.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SyncFailure {
    /// Short, in the console's words.
    pub reason: String,
    /// Upstream's description of the failure, when it gave one: logged, never shown.
    #[serde(skip)]
    pub detail: Option<String>,
    /// The task that failed, when upstream named it (each failed task is one failure).
    pub task: Option<TaskHref>,
}

impl SyncFailure {
    /// A failure known by its reason alone.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
            detail: None,
            task: None,
        }
    }

    /// The whole sentence an operator reads: the reason, the task, and where upstream's own
    /// words are (the console's log, under that task).
    pub fn told(&self) -> String {
        match (&self.task, &self.detail) {
            (Some(task), Some(_)) => format!(
                "The synchronization {} (task {task}); the console's log has Pulp's words, under that task.",
                self.reason
            ),
            (Some(task), None) => format!("The synchronization {} (task {task}).", self.reason),
            (None, _) => format!("The synchronization {}.", self.reason),
        }
    }
}

impl SyncState {
    /// The version a finished synchronization made.
    pub fn made(&self) -> Option<VersionNumber> {
        match self {
            Self::Done(made) => *made,
            Self::Idle | Self::Running(_) | Self::Failed(_) => None,
        }
    }

    /// The stable hook value (`data-sync-state`).
    pub fn as_str(&self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Running(_) => "running",
            Self::Done(_) => "done",
            Self::Failed(_) => "failed",
        }
    }
}

/// Shortens a failure reason for a fixed-size cell: first line, at most `max` characters.
pub fn short_reason(reason: &str, max: usize) -> String {
    let first = reason.lines().next().unwrap_or("").trim();
    if first.chars().count() <= max {
        first.to_owned()
    } else {
        let cut: String = first.chars().take(max.saturating_sub(1)).collect();
        format!("{}\u{2026}", cut.trim_end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_shows_done_total_and_percent() {
        assert_eq!(
            SyncProgress {
                done: 3,
                total: Some(12)
            }
            .text(),
            "3/12\u{b7}25%"
        );
    }

    #[test]
    fn progress_without_total_shows_what_is_known() {
        assert_eq!(
            SyncProgress {
                done: 4,
                total: None
            }
            .text(),
            "4\u{2026}"
        );
        assert_eq!(
            SyncProgress {
                done: 0,
                total: Some(0)
            }
            .percent(),
            None
        );
    }

    #[test]
    fn progress_never_exceeds_one_hundred_percent() {
        assert_eq!(
            SyncProgress {
                done: 15,
                total: Some(10)
            }
            .percent(),
            Some(100)
        );
    }

    #[test]
    fn reasons_are_shortened_on_a_character_boundary() {
        assert_eq!(short_reason("short", 10), "short");
        assert_eq!(
            short_reason("Cannot connect to host 127.0.0.1:9", 12),
            "Cannot conn\u{2026}"
        );
        assert_eq!(short_reason("ééééé", 3), "éé\u{2026}");
        assert_eq!(short_reason("first line\nsecond", 40), "first line");
    }
}
