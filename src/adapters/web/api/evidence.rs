//! `/api/v1/deployments/{deploy_id}/evidence` (a promotion's signed attestation, the DSSE
//! envelope as kept) and `/api/v1/evidence/keys` (the public keys to verify it with). Read
//! without a caller, as the audit they attest is.

use axum::extract::{Path, State};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::app::AppState;
use crate::domain::deploy::DeployId;
use crate::domain::evidence::dsse::Envelope;

use super::error::{ApiError, ErrorBody};

/// A DSSE envelope: `payload` (base64 of an in-toto Statement v1), `payloadType`
/// (`application/vnd.in-toto+json`), `signatures` (`keyid`, `sig` in base64).
#[derive(Serialize, ToSchema)]
#[schema(value_type = Object)]
pub struct EnvelopeBody(Envelope);

/// A public key: its id (each signature's `keyid`), its PEM text, and whether it signs now.
#[derive(Serialize, ToSchema)]
pub struct PublicKey {
    pub keyid: String,
    pub public_key_pem: String,
    pub current: bool,
}

/// The signed attestation of a deploy that moved something.
#[utoipa::path(get, path = "/api/v1/deployments/{deploy_id}/evidence", operation_id = "getDeploymentEvidence", tag = "deployments",
    params(("deploy_id" = String, Path, description = "The deploy id of a deploy, or of a release member's deploy")),
    responses((status = 200, body = EnvelopeBody), (status = 404, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn show(
    State(state): State<AppState>,
    Path(raw): Path<String>,
) -> Result<Json<EnvelopeBody>, ApiError> {
    crate::app::evidence::of_deploy(&state, &DeployId::new(raw))
        .await
        .map(|envelope| Json(EnvelopeBody(envelope)))
        .map_err(|e| ApiError::of(&e))
}

/// The public keys evidence is verified with: the current key, and those kept after a
/// rotation (empty when the console signs nothing).
#[utoipa::path(get, path = "/api/v1/evidence/keys", operation_id = "listEvidenceKeys", tag = "deployments",
    responses((status = 200, body = Vec<PublicKey>)))]
pub async fn keys(State(state): State<AppState>) -> Json<Vec<PublicKey>> {
    Json(
        crate::app::evidence::keys(&state)
            .into_iter()
            .map(|key| PublicKey {
                keyid: key.key_id,
                public_key_pem: key.pem,
                current: key.current,
            })
            .collect(),
    )
}
