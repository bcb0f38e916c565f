//! `JsonlEvidenceStore`: each promotion's attestation as one JSON line of `evidence.jsonl`
//! beside the audit file (`deploy_id`, `repository_uuid`, `environment`, `at`, `envelope`),
//! appended under the file's lock and synced before `put` returns.

use std::collections::HashSet;
use std::fs;
use std::io::{BufRead, BufReader, ErrorKind};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::evidence::dsse::Envelope;
use crate::ports::evidence_store::{EvidenceStore, EvidenceStoreError, StoredEvidence};

use crate::adapters::files::audit_tail::newest_lines;

use super::appending::{append_line, ends_torn};

/// The file's name beside the audit file.
pub const EVIDENCE_FILE: &str = "evidence.jsonl";

pub struct JsonlEvidenceStore {
    path: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct Line {
    deploy_id: DeployId,
    repository_uuid: String,
    environment: EnvironmentName,
    at: DateTime<Utc>,
    envelope: Envelope,
}

impl From<Line> for StoredEvidence {
    fn from(line: Line) -> Self {
        Self {
            deploy_id: line.deploy_id,
            repository_uuid: line.repository_uuid,
            environment: line.environment,
            at: line.at,
            envelope: line.envelope,
        }
    }
}

impl JsonlEvidenceStore {
    /// The store beside the audit file `audit` (same directory, [`EVIDENCE_FILE`]).
    pub fn beside(audit: &Path) -> Self {
        Self {
            path: audit.with_file_name(EVIDENCE_FILE),
        }
    }

    fn error(&self, reason: impl ToString) -> EvidenceStoreError {
        EvidenceStoreError {
            target: self.target(),
            reason: reason.to_string(),
        }
    }

    async fn blocking<T: Send + 'static>(
        &self,
        work: impl FnOnce(PathBuf) -> std::io::Result<T> + Send + 'static,
    ) -> Result<T, EvidenceStoreError> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || work(path))
            .await
            .map_err(|e| self.error(e))?
            .map_err(|e| self.error(e))
    }
}

/// Every line that reads, oldest first, until `found` answers one.
fn first_match(
    path: &Path,
    mut found: impl FnMut(Line) -> Option<StoredEvidence>,
) -> std::io::Result<Option<StoredEvidence>> {
    let file = match fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    for line in BufReader::new(file).split(b'\n') {
        let Ok(line) = serde_json::from_slice::<Line>(&line?) else {
            continue;
        };
        if let Some(evidence) = found(line) {
            return Ok(Some(evidence));
        }
    }
    Ok(None)
}

#[async_trait]
impl EvidenceStore for JsonlEvidenceStore {
    async fn put(&self, evidence: &StoredEvidence) -> Result<(), EvidenceStoreError> {
        let line = Line {
            deploy_id: evidence.deploy_id.clone(),
            repository_uuid: evidence.repository_uuid.clone(),
            environment: evidence.environment.clone(),
            at: evidence.at,
            envelope: evidence.envelope.clone(),
        };
        let bytes = serde_json::to_vec(&line).map_err(|e| self.error(e))?;
        let id = evidence.deploy_id.clone();
        let kept = self
            .blocking(move |path| {
                let mut file = super::requests::open_locked(&path)?;
                if first_match(&path, |l| (l.deploy_id == id).then(|| l.into()))?.is_some() {
                    return Ok(false);
                }
                let torn = ends_torn(&mut file)?;
                append_line(&mut file, torn, &bytes)?;
                Ok(true)
            })
            .await?;
        if kept {
            Ok(())
        } else {
            Err(self.error(format!(
                "deploy {} already has its evidence",
                evidence.deploy_id.as_str()
            )))
        }
    }

    /// Reads the file from its first line (an auditor's question, not a page's).
    async fn of_deploy(&self, id: &DeployId) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let id = id.clone();
        self.blocking(move |path| first_match(&path, |l| (l.deploy_id == id).then(|| l.into())))
            .await
    }

    /// One read of the file from its first line, each line's deploy id alone.
    async fn attested(&self, ids: &[DeployId]) -> Result<HashSet<DeployId>, EvidenceStoreError> {
        #[derive(Deserialize)]
        struct Id {
            deploy_id: DeployId,
        }
        let wanted: HashSet<DeployId> = ids.iter().cloned().collect();
        self.blocking(move |path| {
            let file = match fs::File::open(path) {
                Ok(file) => file,
                Err(e) if e.kind() == ErrorKind::NotFound => return Ok(HashSet::new()),
                Err(e) => return Err(e),
            };
            let mut found = HashSet::new();
            for line in BufReader::new(file).split(b'\n') {
                if let Ok(Id { deploy_id }) = serde_json::from_slice::<Id>(&line?) {
                    if wanted.contains(&deploy_id) {
                        found.insert(deploy_id);
                    }
                }
            }
            Ok(found)
        })
        .await
    }

    /// One backward read from the file's end (bounded as the audit file's).
    async fn newest_of(
        &self,
        repository_uuid: &str,
        environment: &EnvironmentName,
    ) -> Result<Option<StoredEvidence>, EvidenceStoreError> {
        let (repo, environment) = (repository_uuid.to_owned(), environment.clone());
        let found = self
            .blocking(move |path| {
                newest_lines(&path, 1, |line| {
                    let line: Line = serde_json::from_slice(line).ok()?;
                    (line.repository_uuid == repo && line.environment == environment)
                        .then(|| StoredEvidence::from(line))
                })
            })
            .await?;
        Ok(found.into_iter().next())
    }

    fn target(&self) -> String {
        self.path.display().to_string()
    }
}
