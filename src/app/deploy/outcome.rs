//! How a single deploy ended (or why it never started): the pipeline's answer
//! ([`Promoted`]) for a promotion of one repository, in the words the pages, the API,
//! approvals and schedules use.

use crate::domain::approval::ApprovalRequest;
use crate::domain::deploy::{DeployId, DeployPlan, ProductionChanged, Refusal};
use crate::domain::repository::{PublicationHref, TaskHref};
use crate::ports::{AuditError, UpstreamError};

use crate::app::facts::ReadError;
use crate::app::promotion::outcome::{DeployStep, NotStarted, Promoted, Ran, Stop};
use crate::app::promotion::steps::StepError;

/// How a deploy ended.
#[derive(Debug)]
pub enum DeployOutcome {
    /// Production serves the target now. `audit` says whether the outcome line was written.
    Deployed {
        /// Names the deploy's audit lines (and its upstream requests' correlation id).
        deploy_id: DeployId,
        plan: Box<DeployPlan>,
        publication: PublicationHref,
        audit: Result<(), AuditError>,
    },
    /// The environment needs approvals: every check passed and a request was recorded;
    /// nothing was changed upstream.
    Requested(Box<ApprovalRequest>),
    /// A precondition failed; nothing was changed upstream and nothing was audited.
    Refused(Refusal),
    /// The facts could not be read, or the audit log is not writable: nothing was changed.
    NotStarted(NotStarted),
    /// A step failed after the deploy started.
    Failed {
        deploy_id: DeployId,
        plan: Box<DeployPlan>,
        step: DeployStep,
        error: StepError,
        production_changed: ProductionChanged,
        /// Pulp's task of the failed step, when Pulp named one: what an operator checks.
        task: Option<TaskHref>,
        audit: Result<(), AuditError>,
    },
}

impl From<Stop> for DeployOutcome {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Refused(refusal) => Self::Refused(refusal),
            Stop::NotStarted(why) => Self::NotStarted(why),
        }
    }
}

impl From<Promoted> for DeployOutcome {
    fn from(promoted: Promoted) -> Self {
        match promoted {
            Promoted::Refused { refusal, .. } => Self::Refused(refusal),
            Promoted::NotStarted(why) => Self::NotStarted(why),
            Promoted::Requested(request) => Self::Requested(request),
            Promoted::NothingToDo => nothing_ran(),
            Promoted::Ran(ran) => {
                let Ran {
                    mut members, audit, ..
                } = *ran;
                // A promotion of one repository runs one member; without it nothing ran.
                let Some(member) = members.pop() else {
                    return nothing_ran();
                };
                match (member.failure, member.publication) {
                    (None, Some(publication)) => Self::Deployed {
                        deploy_id: member.deploy_id,
                        plan: Box::new(member.plan),
                        publication,
                        audit,
                    },
                    (Some((step, failure)), _) => Self::Failed {
                        deploy_id: member.deploy_id,
                        plan: Box::new(member.plan),
                        step,
                        error: failure.error,
                        production_changed: failure.production_changed,
                        task: failure.task,
                        audit,
                    },
                    // Never made by the pipeline; said as what it would mean: not known.
                    (None, None) => Self::Failed {
                        deploy_id: member.deploy_id,
                        plan: Box::new(member.plan),
                        step: DeployStep::Publish,
                        error: StepError::Upstream(UpstreamError::BadResponse(
                            "the deploy ended without a publication".into(),
                        )),
                        production_changed: ProductionChanged::Unknown,
                        task: None,
                        audit,
                    },
                }
            }
        }
    }
}

/// A promotion of one repository that found nothing to run (never made by the pipeline:
/// a single deploy of a version already served is refused as such).
fn nothing_ran() -> DeployOutcome {
    DeployOutcome::NotStarted(NotStarted::Unreadable(ReadError::Upstream(
        UpstreamError::BadResponse("the deploy found nothing to do".into()),
    )))
}
