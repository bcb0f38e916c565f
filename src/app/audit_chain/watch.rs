//! The last check of the audit log's hash chain and the heads it saw (see
//! [`super::check`]), the state's part shared by the periodic check and `/readyz`.

use std::sync::{Arc, Mutex};

use crate::app::parts::StatePart;
use crate::app::AppState;
use crate::ports::audit_chain::{ChainAnchors, ChainReport};

/// What the last check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LastCheck {
    /// Each log's verdict.
    Checked(Vec<ChainReport>),
    /// The sink could not be read (said, not a break).
    NotChecked(String),
}

/// The last check and the heads it saw, shared by the worker and `/readyz`.
#[derive(Default)]
pub struct ChainWatch {
    last: Mutex<Option<LastCheck>>,
    anchors: Mutex<ChainAnchors>,
}

impl ChainWatch {
    /// The last check's result; `None` before the first.
    pub fn last(&self) -> Option<LastCheck> {
        self.last.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// What needs an operator's attention: each broken log, as the command prints it.
    pub fn attention(&self) -> Option<String> {
        let Some(LastCheck::Checked(reports)) = self.last() else {
            return None;
        };
        let broken: Vec<String> = reports
            .iter()
            .filter(|r| !r.is_intact())
            .map(ToString::to_string)
            .collect();
        (!broken.is_empty()).then(|| {
            format!(
                "the audit log's hash chain is broken: {} (run `repo-console audit verify`)",
                broken.join("; ")
            )
        })
    }

    pub(crate) fn keep(&self, check: LastCheck) {
        if let LastCheck::Checked(reports) = &check {
            let mut anchors = self.anchors.lock().unwrap_or_else(|p| p.into_inner());
            for report in reports {
                if let Ok(summary) = &report.verdict {
                    if let Some(head) = &summary.head {
                        anchors.insert(report.log.clone(), head.clone());
                    }
                }
            }
        }
        *self.last.lock().unwrap_or_else(|p| p.into_inner()) = Some(check);
    }

    pub(crate) fn anchors(&self) -> ChainAnchors {
        self.anchors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// Made empty with the state; kept when a state is rebuilt (its heads are the log's).
impl StatePart for ChainWatch {}

impl AppState {
    /// The last check of the audit log's hash chain and the heads it saw.
    pub fn audit_chain(&self) -> Arc<ChainWatch> {
        self.part()
    }

    /// The audit log's hash chain, when the last periodic check found it broken.
    pub fn audit_chain_attention(&self) -> Option<String> {
        self.audit_chain().attention()
    }
}
