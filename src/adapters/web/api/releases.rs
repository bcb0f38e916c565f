//! `/api/v1/releases`: the releases, one release's members in every environment (with the
//! set each environment would receive and its drift), and the promotion of a set, all or
//! none, through the use case the pages call.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::app::releases::view::{release_view, ReleaseView};
use crate::app::releases::{promote, ReleaseOutcome};
use crate::app::AppState;
use crate::domain::deploy::intent_of;
use crate::domain::release::{
    ProposedSet, ReleaseAsk, ReleaseConfirmation, ReleaseRecord, ReleaseRefusal,
};
use crate::domain::repository::VersionNumber;

use super::super::answer::JsonAnswer;
use super::super::status::HttpStatus;
use super::caller::Caller;
use super::error::{ApiError, ApiJson, ErrorBody};
use super::outcome::Requested;
use super::request_item::request_item;

/// A release: its name and members, in the order they move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseItem {
    pub name: String,
    pub members: Vec<String>,
}

/// The releases.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseList {
    pub items: Vec<ReleaseItem>,
}

/// Every release the console is configured with (`[releases.<name>]`).
#[utoipa::path(get, path = "/api/v1/releases", operation_id = "listReleases", tag = "releases",
    responses((status = 200, body = ReleaseList)))]
pub async fn list(State(state): State<AppState>) -> Json<ReleaseList> {
    let items = state
        .releases()
        .iter()
        .map(|release| ReleaseItem {
            name: release.name.to_string(),
            members: release.members().to_vec(),
        })
        .collect();
    Json(ReleaseList { items })
}

/// One member in one environment.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberServing {
    pub environment: String,
    /// The version it serves (null: nothing, or not read: see `error`).
    pub version: Option<u64>,
}

/// One member of a release.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseMember {
    pub repository: String,
    /// Null when Pulp has no repository of that name (promotion is refused: `unknown_member`).
    pub repository_uuid: Option<String>,
    pub environments: Vec<MemberServing>,
    /// Set when its environments could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// A member whose environment disagrees with the release's last promotion there.
#[derive(Debug, Serialize, ToSchema)]
pub struct MemberDriftItem {
    pub repository: String,
    pub expected: Option<u64>,
    pub serving: Option<u64>,
    /// `true`: the last promotion was left half done; `false`: it moved on its own since.
    pub half_done: bool,
    pub description: String,
}

/// One environment of a release.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseEnvironment {
    pub environment: String,
    /// Where its set comes from (null: the first environment, which takes each member's
    /// newest version).
    pub source: Option<String>,
    /// The set it would receive, by repository (null when `missing` is not empty).
    pub proposed: Option<BTreeMap<String, u64>>,
    /// Whether promoting `proposed` would move anything.
    pub moves: bool,
    /// Members the source has nothing of.
    pub missing: Vec<String>,
    pub drift: Vec<MemberDriftItem>,
}

/// A release in every environment.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReleaseDetail {
    pub name: String,
    pub members: Vec<ReleaseMember>,
    pub environments: Vec<ReleaseEnvironment>,
    /// Its promotions, newest first (the release's audit lines).
    #[schema(value_type = Vec<Object>)]
    pub promotions: Vec<ReleaseRecord>,
    /// Set when the audit could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_error: Option<String>,
}

/// One release: every member in every environment, each environment's set and drift.
#[utoipa::path(get, path = "/api/v1/releases/{name}", operation_id = "getRelease", tag = "releases",
    params(("name" = String, Path, description = "The release's name")),
    responses((status = 200, body = ReleaseDetail), (status = 404, body = ErrorBody), (status = 502, body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<ReleaseDetail>, ApiError> {
    let release = state
        .releases()
        .get(&name)
        .ok_or_else(|| ApiError::release_refused(&ReleaseRefusal::UnknownRelease(name.clone())))?
        .clone();
    let view = release_view(&state, &release)
        .await
        .map_err(|e| ApiError::of(&e))?;
    Ok(Json(detail(view)))
}

fn detail(view: ReleaseView) -> ReleaseDetail {
    let members = view
        .members
        .iter()
        .map(|row| ReleaseMember {
            repository: row.name.clone(),
            repository_uuid: row.member.as_ref().map(|m| m.repo.id.to_string()),
            environments: view
                .environments
                .iter()
                .map(|c| MemberServing {
                    environment: c.name.to_string(),
                    version: row.serving(&c.name).map(VersionNumber::get),
                })
                .collect(),
            error: row.environments.as_ref().err().map(ToString::to_string),
        })
        .collect();
    let environments = view
        .environments
        .iter()
        .map(|c| {
            let (proposed, moves, missing) = match &c.proposed {
                ProposedSet::Ready { versions, moves } => (
                    Some(versions.iter().map(|(k, v)| (k.clone(), v.get())).collect()),
                    *moves,
                    Vec::new(),
                ),
                ProposedSet::Incomplete { missing } => (None, false, missing.clone()),
            };
            ReleaseEnvironment {
                environment: c.name.to_string(),
                source: c.source.as_ref().map(ToString::to_string),
                proposed,
                moves,
                missing,
                drift: c
                    .drift
                    .iter()
                    .map(|d| MemberDriftItem {
                        repository: d.repository.clone(),
                        expected: d.expected.map(VersionNumber::get),
                        serving: d.serving.map(VersionNumber::get),
                        half_done: d.half_done,
                        description: d.describe(),
                    })
                    .collect(),
            }
        })
        .collect();
    let (promotions, audit_error) = match view.promotions {
        Ok(records) => (records, None),
        Err(error) => (Vec::new(), Some(error.to_string())),
    };
    ReleaseDetail {
        name: view.release.name.to_string(),
        members,
        environments,
        promotions,
        audit_error,
    }
}

/// A promotion of a release's set asked through the API.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PromotionBody {
    pub environment: String,
    /// The version each member goes to, by repository name: every member, no other.
    pub versions: BTreeMap<String, u64>,
    /// What the caller believes each member's environment serves now (null: nothing), by
    /// repository name: the API's confirmation, compared before anything moves (409 `moved`
    /// naming the member).
    #[schema(value_type = BTreeMap<String, Option<u64>>)]
    pub expected_current: BTreeMap<String, Option<u64>>,
    /// Why (kept in the audit lines; required for a rollback and to override a freeze).
    #[serde(default)]
    pub reason: Option<String>,
    /// `true` for a rollback of the set to versions the environment served.
    #[serde(default)]
    pub rollback: bool,
    /// `true` to promote through the environment's freeze (those listed in its `override`).
    #[serde(default, rename = "override")]
    pub override_freeze: bool,
}

/// How a promotion ended: the release's record (`served`: `new`, `old`, `mixed` or
/// `unknown`; each member's `outcome`: `moved`, `restored`, `unchanged`, `unknown`).
#[derive(Debug, Serialize, ToSchema)]
pub struct PromotionOutcome {
    #[schema(value_type = Object)]
    pub promotion: ReleaseRecord,
    /// Set when an audit line could not be written (the promotion still happened as said).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit_error: Option<String>,
}

/// Promotes a set of versions of a release's members to one environment, all or none.
#[utoipa::path(post, path = "/api/v1/releases/{name}/promotions", operation_id = "promoteRelease", tag = "releases",
    params(("name" = String, Path, description = "The release's name")),
    request_body = PromotionBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every member serves its target", body = PromotionOutcome),
        (status = 202, description = "The environment needs approvals: one request for the release was recorded", body = Requested),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "Refused before anything moved (`moved`, `unknown_member`, `frozen`...)", body = ErrorBody),
        (status = 422, body = ErrorBody),
        (status = 502, description = "A step failed: the members already moved were put back; see each member's outcome", body = PromotionOutcome),
        (status = 503, body = ErrorBody)))]
pub async fn promotions(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Caller(operator): Caller,
    ApiJson(body): ApiJson<PromotionBody>,
) -> Result<Response, ApiError> {
    if state.releases().get(&name).is_none() {
        return Err(ApiError::release_refused(&ReleaseRefusal::UnknownRelease(
            name,
        )));
    }
    let environment = state
        .environments()
        .chosen(Some(&body.environment))
        .map_err(|unknown| ApiError::said(&unknown, format!("Field 'environment': {unknown}.")))?
        .name
        .clone();
    let intent =
        intent_of(body.rollback, body.reason.as_deref()).map_err(|r| ApiError::refused(&r))?;
    let ask = ReleaseAsk {
        environment,
        versions: body
            .versions
            .into_iter()
            .map(|(k, v)| (k, VersionNumber::new(v)))
            .collect(),
        expected: body
            .expected_current
            .into_iter()
            .map(|(k, v)| (k, v.map(VersionNumber::new)))
            .collect(),
        confirm: ReleaseConfirmation::ExpectedCurrent,
        intent,
        override_freeze: body.override_freeze,
    };
    Ok(answer(promote(&state, &name, &ask, &operator).await))
}

/// The answer of a promotion's outcome (also an approval's, which may run one).
pub fn answer(outcome: ReleaseOutcome) -> Response {
    let status = outcome.status();
    match outcome {
        ReleaseOutcome::Requested(request) => JsonAnswer::Recorded(Requested {
            request: request_item(&request, "pending", &[], 0),
        })
        .into_response(),
        ReleaseOutcome::Refused(refusal) => ApiError::release_refused(&refusal).into_response(),
        ReleaseOutcome::NotStarted(why) => ApiError::of(&why).into_response(),
        ReleaseOutcome::Ended(ended) => {
            let body = PromotionOutcome {
                promotion: ended.record,
                audit_error: ended.audit.err().map(|e| e.to_string()),
            };
            (status, Json(body)).into_response()
        }
    }
}
