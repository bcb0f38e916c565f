//! A promotion's attestation made, signed and kept: [`attest`], called by the pipeline after
//! each member's outcome line is written (see the room's header).

use super::signing::EvidenceSigning;
use crate::app::AppState;
use crate::domain::approval::RequestEvent;
use crate::domain::deploy::{AuditOutcome, DeployRecord};
use crate::domain::evidence::dsse::{Envelope, Signature, IN_TOTO_PAYLOAD_TYPE};
use crate::domain::evidence::party::Party;
use crate::domain::evidence::predicate::{
    Known, PassedCheck, PreviousAttestation, PromotionPredicate, PulpFacts, RequestSeen,
};
use crate::domain::evidence::statement::{Statement, Subject};
use crate::domain::evidence::verify::payload_sha256;
use crate::domain::identity::Operator;
use crate::domain::repository::{Distribution, RepoId};
use crate::ports::evidence_signer::EvidenceSigner;
use crate::ports::evidence_store::StoredEvidence;

/// Signs and keeps the attestation of the deploy whose outcome line is `record`, when it
/// moved something (`deployed`) and the console signs evidence; `distribution` is the one it
/// pointed, `operator` who asked (a person, or a token with its owner). Never fails the
/// deploy (see the module's doc).
pub async fn attest(
    state: &AppState,
    record: &DeployRecord,
    distribution: &Distribution,
    operator: &Operator,
) {
    let Some(evidence) = state.evidence() else {
        return;
    };
    if record.outcome != AuditOutcome::Deployed {
        return;
    }
    match sign_and_keep(state, &evidence, record, distribution, operator).await {
        Ok(kept) => tracing::info!(
            deploy_id = record.deploy_id.as_str(),
            payload_sha256 = %payload_sha256(&kept.envelope),
            "the promotion's evidence is signed and kept"
        ),
        Err(error) => tracing::error!(
            deploy_id = record.deploy_id.as_str(),
            %error,
            "the promotion's evidence was not kept; the deploy itself is done and audited"
        ),
    }
}

async fn sign_and_keep(
    state: &AppState,
    evidence: &EvidenceSigning,
    record: &DeployRecord,
    distribution: &Distribution,
    operator: &Operator,
) -> Result<StoredEvidence, String> {
    let served = evidence
        .served
        .repomd_sha256(distribution)
        .await
        .map_err(|e| format!("what the distribution serves could not be read: {e}"))?;
    let previous = evidence
        .store
        .newest_of(&record.repository_uuid, &record.environment)
        .await
        .map_err(|e| e.to_string())?;
    let known = Known {
        pulp: PulpFacts {
            publication: record.publication.as_ref().map(ToString::to_string),
            distribution: distribution.href.to_string(),
            distribution_name: distribution.name.clone(),
            base_path: distribution.base_path.clone(),
        },
        deployer: Party::of(operator),
        request: request_seen(state, record).await,
        checks: passed_checks(state, record).await,
        policy: evidence.policy.clone(),
        previous: previous.map(|p| PreviousAttestation {
            payload_sha256: payload_sha256(&p.envelope),
            deploy_id: p.deploy_id,
        }),
    };
    let subject = Subject::new(
        &record.repository_name,
        record.environment.as_str(),
        &served,
    );
    let statement = Statement::of(subject, PromotionPredicate::of(record, known));
    let envelope = sign(evidence.signer.as_ref(), &statement)?;
    let kept = StoredEvidence {
        deploy_id: record.deploy_id.clone(),
        repository_uuid: record.repository_uuid.clone(),
        environment: record.environment.clone(),
        at: record.timestamp,
        envelope,
    };
    evidence.store.put(&kept).await.map_err(|e| e.to_string())?;
    Ok(kept)
}

/// `statement` in a DSSE envelope signed by `signer`.
pub fn sign(signer: &dyn EvidenceSigner, statement: &Statement) -> Result<Envelope, String> {
    let payload = serde_json::to_vec(statement).map_err(|e| e.to_string())?;
    let mut envelope = Envelope {
        payload,
        payload_type: IN_TOTO_PAYLOAD_TYPE.to_owned(),
        signatures: Vec::new(),
    };
    envelope.signatures.push(Signature {
        keyid: signer.key_id().to_owned(),
        sig: signer.sign(&envelope.signed_bytes()),
    });
    Ok(envelope)
}

/// Who asked for the request the deploy ran for, and who approved it when, from the
/// request's record (`None` when there was none, or it is gone).
async fn request_seen(state: &AppState, record: &DeployRecord) -> Option<RequestSeen> {
    let (Some(trail), Some(store)) = (&record.request, state.requests.as_deref()) else {
        return None;
    };
    let log = store.get(&trail.request_id).await.ok().flatten()?;
    let approvals = log
        .events
        .iter()
        .filter_map(|event| match event {
            RequestEvent::Approved { actor, at } => Some((
                Party::of_actor(actor),
                at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            )),
            _ => None,
        })
        .collect();
    Some(RequestSeen {
        requested_by: Party::of_requester(&log.request),
        approvals,
    })
}

/// The checks reported passing for the version promoted: in the environment it came from
/// and in the one it went to, as the check store holds them now.
async fn passed_checks(state: &AppState, record: &DeployRecord) -> Vec<PassedCheck> {
    let (Some(store), Ok(repo)) = (
        state.checks.as_deref(),
        RepoId::parse(&record.repository_uuid),
    ) else {
        return Vec::new();
    };
    let Ok(reports) = store.latest(&repo, Some(record.target_version)).await else {
        return Vec::new();
    };
    reports
        .into_iter()
        .filter(|r| r.passed)
        .map(|r| PassedCheck {
            name: r.key.name.to_string(),
            environment: r.key.environment.to_string(),
            reporter: r.reporter,
            url: r.url.map(String::from),
            at: r.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        })
        .collect()
}
