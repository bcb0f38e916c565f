//! A deploy: what was asked (the form's or the API's ask, the intent and its confirmation),
//! the plan and the preconditions checked against upstream's facts, the verdict on whether
//! production changed when a write failed, the refusals, the record the audit log keeps, and what the environment before serves and since when
//! (`previous`: the fact a soak is judged on, read with a deploy's facts).

pub mod ask;
pub mod intent;
pub mod plan;
pub mod previous;
pub mod progress;
pub mod record;
pub mod refusal;
pub mod verdict;

pub use ask::{intent_of, DeployAsk};
pub use intent::{refusal_for, DeployKind, Intent, Reason, REASON_MAX_CHARS};
pub use plan::{
    check_confirmation, check_request, check_unmoved, find_deployed, plan_deploy, production_state,
    Confirmation, DeployFacts, DeployPlan, DeployRequest, Deployed, ProductionChanged,
    ProductionState, ProductionTarget, SeenLive,
};
pub use previous::PreviousServing;
pub use record::{
    versions_served, ApprovalTrail, AuditOutcome, Authority, Automation, CheckTrigger,
    ChecksOverride, DeployId, DeployRecord, FreezeOverride, ScheduleMark, SoakOverride,
};
pub use refusal::{PinnedRefusal, Refusal, SoakRefusal};
pub use verdict::{needs_reread, production_changed, Reread, WriteVerdict};
