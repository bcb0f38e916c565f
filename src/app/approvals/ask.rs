//! A deploy that needs approvals becomes a request: recorded after every check of a deploy
//! passed, against what the environment serves now (see [`crate::app::approvals::requests`] for what
//! follows).

use crate::domain::{ApprovalRequest, DeployPlan, DeployRequest, EventData, Operator, RequestId};
use crate::ports::RequestStoreError;

use crate::app::deploy::outcome::{DeployOutcome, NotStarted};
use crate::app::events;
use crate::app::state::AppState;

/// Records the request for `plan` (every check of the deploy passed), made by `operator`.
pub(crate) async fn ask(
    state: &AppState,
    plan: &DeployPlan,
    request: &DeployRequest,
    operator: &Operator,
) -> DeployOutcome {
    let Some(store) = &state.requests else {
        let reason = "this console keeps no requests (no request store is configured)";
        return DeployOutcome::NotStarted(NotStarted::RequestNotKept(
            RequestStoreError::Unavailable {
                target: "none".into(),
                reason: reason.into(),
            },
        ));
    };
    let now = state.clock.now().await;
    let asked = ApprovalRequest {
        id: RequestId::parse(&uuid::Uuid::new_v4().to_string()).expect("a UUID is an id"),
        repository_uuid: plan.repo.id.to_string(),
        repository_name: plan.repo.display_name().to_owned(),
        environment: plan.environment.clone(),
        target_version: plan.target_number().get(),
        asked_against: plan.current.map(|n| n.get()),
        requester: operator.name().clone(),
        requester_key: Some(operator.person().clone()),
        requester_groups: operator.groups(),
        kind: request.intent.kind(),
        reason: request.intent.reason().map(str::to_owned),
        override_freeze: request.override_freeze,
        created: now,
        expires: now + state.request_ttl,
    };
    match store.create(&asked).await {
        Ok(()) => {
            tracing::info!(request_id = %asked.id, "deploy requested: it needs approvals");
            events::emit(state, EventData::request_created(&asked)).await;
            DeployOutcome::Requested(Box::new(asked))
        }
        Err(error) => {
            tracing::error!(%error, "deploy not requested: the request could not be kept");
            DeployOutcome::NotStarted(NotStarted::RequestNotKept(error))
        }
    }
}
