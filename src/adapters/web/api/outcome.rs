//! How a deploy asked through the API ended (also an approval's, which may run one): the
//! outcome with whether the environment changed, the request when approvals are needed, or
//! the refusal.

use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::deploy::DeployOutcome;
use crate::domain::deploy::ProductionChanged;
use crate::domain::environment::EnvironmentName;
use crate::domain::repository::VersionNumber;

use super::super::answer::{JsonAnswer, StatusOf};
use super::error::{ApiError, ErrorDetail};
use super::request_item::{request_item, RequestItem};

/// How a deploy asked through the API ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeploymentOutcome {
    pub deploy_id: String,
    /// `deployed` or `failed`.
    pub outcome: String,
    /// Whether the environment changed (whichever it is): `yes`, `no` (proven) or `unknown`
    /// (check `task`).
    pub changed: String,
    /// Deprecated (kept for one release): the same as `changed`, for any environment.
    #[schema(deprecated)]
    pub production_changed: String,
    pub environment: String,
    /// What it served before (null: nothing).
    pub from: Option<u64>,
    pub to: u64,
    /// The Pulp task to check when the answer is `unknown`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
    /// Why it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorDetail>,
    /// Set when an audit line could not be written (the deploy still happened as said).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_error: Option<String>,
    /// The edge Pulps that copy the environment, when any: how many serve it (right after
    /// the move, none yet: follow `GET /api/v1/deployments/{deploy_id}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edges: Option<super::edges::PromotionEdges>,
}

/// A deploy that needs approvals: the request recorded.
#[derive(Debug, Serialize, ToSchema)]
pub struct Requested {
    pub request: RequestItem,
}

/// The answer of a deploy's outcome (also an approval's, which may run one).
pub fn answer(outcome: DeployOutcome, environment: &EnvironmentName) -> Response {
    answer_with_edges(outcome, environment, None)
}

/// [`answer`], with the edges of the environment's distribution.
pub fn answer_with_edges(
    outcome: DeployOutcome,
    environment: &EnvironmentName,
    edges: Option<super::edges::PromotionEdges>,
) -> Response {
    match outcome {
        DeployOutcome::Requested(request) => JsonAnswer::Recorded(Requested {
            request: request_item(&request, "pending", &[], 0),
        })
        .into_response(),
        DeployOutcome::Refused(refusal) => ApiError::refused(&refusal).into_response(),
        DeployOutcome::NotStarted(why) => ApiError::of(&why).into_response(),
        DeployOutcome::Deployed {
            deploy_id,
            plan,
            audit,
            ..
        } => JsonAnswer::Done(DeploymentOutcome {
            deploy_id: deploy_id.as_str().to_owned(),
            outcome: "deployed".into(),
            changed: "yes".into(),
            production_changed: "yes".into(),
            environment: environment.to_string(),
            from: plan.current.map(VersionNumber::get),
            to: plan.target_number().get(),
            task: None,
            error: None,
            audit_error: audit.err().map(|e| e.to_string()),
            edges,
        })
        .into_response(),
        DeployOutcome::Failed {
            deploy_id,
            plan,
            error,
            production_changed,
            task,
            audit,
            ..
        } => {
            let body = DeploymentOutcome {
                deploy_id: deploy_id.as_str().to_owned(),
                outcome: "failed".into(),
                changed: changed_word(production_changed).into(),
                production_changed: changed_word(production_changed).into(),
                environment: environment.to_string(),
                from: plan.current.map(VersionNumber::get),
                to: plan.target_number().get(),
                task: task.map(|t| t.to_string()),
                error: Some(ApiError::of(&error).body().error),
                audit_error: audit.err().map(|e| e.to_string()),
                edges,
            };
            JsonAnswer::As(StatusOf::of(&error), body).into_response()
        }
    }
}

pub fn changed_word(changed: ProductionChanged) -> &'static str {
    match changed {
        ProductionChanged::No => "no",
        ProductionChanged::Yes => "yes",
        ProductionChanged::Unknown => "unknown",
    }
}
