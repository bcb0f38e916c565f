//! A release promotion to an environment that needs approvals becomes **one** request for
//! the whole release, recorded after every check of every member passed: one approval
//! approves every member, and the completing approval runs the promotion (every check made
//! again). The request names its first moving member in the fields a single deploy's
//! request has (so lists link somewhere real), and every member's move in `release`.

use crate::domain::approval::{ApprovalRequest, ReleaseRequest};
use crate::domain::identity::Operator;
use crate::domain::ids::RequestId;
use crate::domain::release::{MemberLine, Release, ReleaseAsk};
use crate::ports::RequestStoreError;

use crate::app::approvals::asking::ask::{keep, request_store, Kept};
use crate::app::approvals::asking::one_open::SameAsk;
use crate::app::state::AppState;

/// Records the request for promoting `members` (each from what it serves to its target) of
/// `release`, or answers the open request that already asks the same.
pub(crate) async fn ask(
    state: &AppState,
    release: &Release,
    asked: &ReleaseAsk,
    members: &[MemberLine],
    operator: &Operator,
) -> Result<Box<ApprovalRequest>, RequestStoreError> {
    let store = request_store(state)?;
    let mut members = members.to_vec();
    members.sort_by_key(|m| {
        release
            .members()
            .iter()
            .position(|n| *n == m.repository_name)
    });
    let Some(first) = members
        .iter()
        .find(|m| m.previous_version != Some(m.target_version))
    else {
        // The use case asks only when some member moves.
        return Err(RequestStoreError::Unavailable {
            target: "none".into(),
            reason: "the release has no member to move".into(),
        });
    };
    let now = state.clock.now().await;
    let request = ApprovalRequest {
        id: RequestId::parse("unnamed").expect("a word is an id"),
        repository_uuid: first.repository_uuid.clone(),
        repository_name: release.name.to_string(),
        environment: asked.environment.clone(),
        target_version: first.target_version,
        asked_against: first.previous_version,
        requester: operator.name().clone(),
        requester_key: Some(operator.person().clone()),
        requester_groups: operator.groups(),
        requester_kind: Some(crate::domain::policy::ActorKind::of(operator)),
        kind: asked.intent.kind(),
        reason: asked.intent.reason().map(str::to_owned),
        override_freeze: asked.override_freeze,
        release: Some(ReleaseRequest {
            name: release.name.clone(),
            members: members.clone(),
        }),
        created: now,
        expires: now + state.request_ttl,
        schedule: None,
    };
    let targets: Vec<String> = members
        .iter()
        .map(|m| format!("{}={}", m.repository_name, m.target_version))
        .collect();
    let same = SameAsk::of(
        &format!("release:{}:{}", release.name, targets.join(",")),
        &asked.environment,
        0,
        operator,
    );
    match keep(state, store.as_ref(), request, &same).await? {
        Kept::Made(request) | Kept::Open(request) => Ok(request),
    }
}
