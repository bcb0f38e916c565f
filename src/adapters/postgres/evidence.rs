//! `PgEvidenceStore`: each promotion's attestation as a row of `evidence`, every replica
//! reading the same chain.

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::evidence::dsse::Envelope;
use crate::ports::evidence_store::{EvidenceStore, EvidenceStoreError, StoredEvidence};

use super::Database;

pub struct PgEvidenceStore {
    db: Database,
}

type Row = (String, String, String, DateTime<Utc>, String);

const COLUMNS: &str = "deploy_id, repository_uuid, environment, recorded_at, envelope";

impl PgEvidenceStore {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> EvidenceStoreError {
        EvidenceStoreError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }

    fn evidence(&self, row: Row) -> Result<StoredEvidence, EvidenceStoreError> {
        let (deploy_id, repository_uuid, environment, at, envelope) = row;
        let envelope: Envelope = serde_json::from_str(&envelope).map_err(|e| self.error(e))?;
        let environment = EnvironmentName::parse(&environment).map_err(|e| self.error(e))?;
        Ok(StoredEvidence {
            deploy_id: DeployId::new(deploy_id),
            repository_uuid,
            environment,
            at,
            envelope,
        })
    }
}

#[async_trait]
impl EvidenceStore for PgEvidenceStore {
    async fn put(&self, evidence: &StoredEvidence) -> Result<(), EvidenceStoreError> {
        let envelope = serde_json::to_string(&evidence.envelope).map_err(|e| self.error(e))?;
        sqlx::query(&format!(
            "INSERT INTO evidence ({COLUMNS}) VALUES ($1, $2, $3, $4, $5)"
        ))
        .bind(evidence.deploy_id.as_str())
        .bind(&evidence.repository_uuid)
        .bind(evidence.environment.as_str())
        .bind(evidence.at)
        .bind(envelope)
        .execute(&self.db.pool)
        .await
        .map_err(|e| self.error(e))
        .map(drop)
    }

    async fn of_deploy(&self, id: &DeployId) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM evidence WHERE deploy_id = $1"
        ))
        .bind(id.as_str())
        .fetch_optional(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        row.map(|row| self.evidence(row)).transpose()
    }

    async fn attested(&self, ids: &[DeployId]) -> Result<HashSet<DeployId>, EvidenceStoreError> {
        let ids: Vec<&str> = ids.iter().map(DeployId::as_str).collect();
        let found: Vec<String> =
            sqlx::query_scalar("SELECT deploy_id FROM evidence WHERE deploy_id = ANY($1)")
                .bind(&ids)
                .fetch_all(&self.db.pool)
                .await
                .map_err(|e| self.error(e))?;
        Ok(found.into_iter().map(DeployId::new).collect())
    }

    async fn newest_of(
        &self,
        repository_uuid: &str,
        environment: &EnvironmentName,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let row: Option<Row> = sqlx::query_as(&format!(
            "SELECT {COLUMNS} FROM evidence WHERE repository_uuid = $1 AND environment = $2 \
             ORDER BY id DESC LIMIT 1"
        ))
        .bind(repository_uuid)
        .bind(environment.as_str())
        .fetch_optional(&self.db.pool)
        .await
        .map_err(|e| self.error(e))?;
        row.map(|row| self.evidence(row)).transpose()
    }

    fn target(&self) -> String {
        self.db.target.clone()
    }
}
