//! One approval request as the API shows it (listed, approved, or made by a deploy).

use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::approval::ApprovalRequest;
use crate::domain::identity::PersonName;

/// One request.
#[derive(Debug, Serialize, ToSchema)]
pub struct RequestItem {
    pub id: String,
    pub repository_uuid: String,
    pub repository_name: String,
    pub environment: String,
    pub target_version: u64,
    /// What the environment served when the request was made (null: nothing).
    pub asked_against: Option<u64>,
    pub requester: String,
    pub reason: Option<String>,
    /// `deploy` or `rollback`.
    pub kind: String,
    pub override_freeze: bool,
    /// RFC 3339.
    pub created: String,
    pub expires: String,
    /// `pending`, `executing` (approved, its deploy running), `scheduled` (approved, its schedule runs it), `executed`, `failed`, `rejected`,
    /// `cancelled`, `expired` or `stale`.
    pub state: String,
    pub approvers: Vec<String>,
    /// Approvals the environment needs.
    pub approvals_needed: u32,
}

pub fn request_item(
    request: &ApprovalRequest,
    state: &str,
    approvers: &[PersonName],
    needed: u32,
) -> RequestItem {
    let at =
        |t: &chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    RequestItem {
        id: request.id.to_string(),
        repository_uuid: request.repository_uuid.clone(),
        repository_name: request.repository_name.clone(),
        environment: request.environment.to_string(),
        target_version: request.target_version,
        asked_against: request.asked_against,
        requester: request.requester.to_string(),
        reason: request.reason.clone(),
        kind: serde_json::to_value(request.kind)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        override_freeze: request.override_freeze,
        created: at(&request.created),
        expires: at(&request.expires),
        state: state.to_owned(),
        approvers: approvers.iter().map(PersonName::to_string).collect(),
        approvals_needed: needed,
    }
}
