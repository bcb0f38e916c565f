//! Pulp's JSON, as far as the console reads it, and its conversion into domain types.
//! Unknown fields are ignored and optional ones may be missing.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;

use crate::domain::content::kind::ContentType;
use crate::domain::repository::{
    ChecksumType, Distribution, DistributionHref, DistributionRevision, Publication,
    PublicationHref, RemoteHref, RepoId, RepoVerification, RepoVersion, Repository, TaskHref,
    VersionHref,
};
use crate::domain::sync::{ProgressReport, TaskReport, TaskState};
use crate::ports::UpstreamError;

use super::plugins::{plugin_of, plugin_of_href};

/// One page of a list: `{count, next, previous, results}`.
#[derive(Debug, Deserialize)]
pub(crate) struct PageDto<T> {
    #[serde(default)]
    pub count: u64,
    pub next: Option<String>,
    #[serde(default = "Vec::new")]
    pub results: Vec<T>,
}

/// The answer of an asynchronous call: `202 {"task": href}`.
#[derive(Debug, Deserialize)]
pub(crate) struct TaskRefDto {
    pub task: String,
}

#[derive(Debug, Deserialize)]
pub(crate) struct RepositoryDto {
    pulp_href: String,
    name: Option<String>,
    repo_config: Option<Value>,
    checksum_type: Option<String>,
    /// Before pulp_rpm 3.30 the checksum and gpg settings were top-level fields.
    metadata_checksum_type: Option<String>,
    gpgcheck: Option<Value>,
    repo_gpgcheck: Option<Value>,
    /// Absent on servers that do not say; `null` when no service signs the metadata.
    #[serde(default, deserialize_with = "present")]
    metadata_signing_service: Option<Option<String>>,
    /// pulp_deb's signing service of the `Release` files, read as `metadata_signing_service`.
    #[serde(default, deserialize_with = "present")]
    signing_service: Option<Option<String>>,
    latest_version_href: Option<String>,
    remote: Option<String>,
    retain_repo_versions: Option<u64>,
}

impl RepositoryDto {
    pub fn into_domain(self) -> Result<Repository, UpstreamError> {
        let not_ours = || {
            UpstreamError::BadResponse(format!(
                "'{}' is not an RPM or Debian repository address",
                self.pulp_href
            ))
            .logged()
        };
        let id = RepoId::from_href(&self.pulp_href).ok_or_else(not_ours)?;
        let content_type = plugin_of(&self.pulp_href)
            .ok_or_else(not_ours)?
            .content_type;
        let verification = match content_type {
            ContentType::Rpm => self.rpm_verification(),
            // apt's rules read one setting: whether a signing service signs the Release files.
            ContentType::Deb => RepoVerification {
                content_type,
                metadata_signed: self.signing_service.as_ref().map(Option::is_some),
                ..RepoVerification::default()
            },
        };
        Ok(Repository {
            id,
            href: self.pulp_href,
            name: self.name,
            verification,
            latest_version: self.latest_version_href.map(VersionHref::new),
            remote: self.remote.map(RemoteHref::new),
            retain_versions: self.retain_repo_versions,
        })
    }

    fn rpm_verification(&self) -> RepoVerification {
        // Since pulp_rpm 3.30 `repo_config` is the truth and the top-level fields are dead:
        // they are read only from servers that have no `repo_config`.
        let setting = |key: &str| match &self.repo_config {
            Some(config) if !config.is_null() => config.get(key).and_then(flag),
            _ => match key {
                "gpgcheck" => self.gpgcheck.as_ref().and_then(flag),
                _ => self.repo_gpgcheck.as_ref().and_then(flag),
            },
        };
        RepoVerification {
            content_type: ContentType::Rpm,
            gpgcheck: setting("gpgcheck"),
            repo_gpgcheck: setting("repo_gpgcheck"),
            metadata_signed: self.metadata_signing_service.as_ref().map(Option::is_some),
            checksum: self
                .checksum_type
                .as_deref()
                .or(self.metadata_checksum_type.as_deref())
                .filter(|c| !c.trim().is_empty())
                .map(ChecksumType::parse),
        }
    }
}

/// Tells a field sent as `null` (`Some(None)`) from a field not sent at all (`None`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

/// A yum-style switch: `1`/`0`, `true`/`false`, `"1"`/`"0"`, `"yes"`/`"no"`…
fn flag(value: &Value) -> Option<bool> {
    match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|f| f != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "1" | "true" | "yes" | "on" => Some(true),
            "0" | "false" | "no" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct VersionDto {
    pulp_href: String,
    pulp_created: Option<DateTime<Utc>>,
    #[serde(default)]
    content_summary: ContentSummaryDto,
}

#[derive(Debug, Default, Deserialize)]
struct ContentSummaryDto {
    #[serde(default)]
    added: HashMap<String, CountDto>,
    #[serde(default)]
    removed: HashMap<String, CountDto>,
    #[serde(default)]
    present: HashMap<String, CountDto>,
}

#[derive(Debug, Deserialize)]
struct CountDto {
    #[serde(default)]
    count: u64,
}

/// The packages one side of a summary counts, under the key of the version's plugin
/// (`rpm.package`, `deb.package`).
fn packages(side: &HashMap<String, CountDto>, key: &str) -> u64 {
    side.get(key).map_or(0, |c| c.count)
}

impl VersionDto {
    pub fn into_domain(self) -> Result<RepoVersion, UpstreamError> {
        let created = self.pulp_created.ok_or_else(|| {
            UpstreamError::BadResponse(format!("version {} has no creation time", self.pulp_href))
                .logged()
        })?;
        let key = plugin_of_href(&self.pulp_href).package_summary;
        Ok(RepoVersion {
            created,
            package_count: packages(&self.content_summary.present, key),
            added: packages(&self.content_summary.added, key),
            removed: packages(&self.content_summary.removed, key),
            href: VersionHref::new(self.pulp_href),
        })
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct DistributionDto {
    pulp_href: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    base_path: String,
    publication: Option<String>,
    /// Changes with every write of the distribution (Django's `auto_now`).
    #[serde(default)]
    pulp_last_updated: Option<String>,
}

impl DistributionDto {
    pub fn into_domain(self) -> Distribution {
        Distribution {
            href: DistributionHref::new(self.pulp_href),
            name: self.name,
            base_path: self.base_path,
            publication: self
                .publication
                .filter(|p| !p.is_empty())
                .map(PublicationHref::new),
            revision: self.pulp_last_updated.map(DistributionRevision::new),
        }
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct PublicationDto {
    pulp_href: String,
    repository_version: Option<String>,
}

impl PublicationDto {
    pub fn into_domain(self) -> Result<Publication, UpstreamError> {
        let version = self.repository_version.ok_or_else(|| {
            UpstreamError::BadResponse(format!(
                "publication {} names no repository version",
                self.pulp_href
            ))
            .logged()
        })?;
        Ok(Publication {
            href: PublicationHref::new(self.pulp_href),
            repository_version: VersionHref::new(version),
        })
    }
}

#[derive(Debug, Deserialize)]
pub(crate) struct TaskDto {
    pulp_href: String,
    state: String,
    error: Option<Value>,
    #[serde(default)]
    progress_reports: Vec<ProgressDto>,
    #[serde(default)]
    created_resources: Vec<String>,
    #[serde(default)]
    pub reserved_resources_record: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ProgressDto {
    code: Option<String>,
    message: Option<String>,
    done: Option<u64>,
    total: Option<u64>,
}

impl TaskDto {
    pub fn into_domain(self) -> Result<TaskReport, UpstreamError> {
        let state = task_state(&self.state).ok_or_else(|| {
            UpstreamError::BadResponse(format!(
                "task {} is in an unknown state '{}'",
                self.pulp_href, self.state
            ))
            .logged()
        })?;
        let skipped = self.state == "skipped";
        Ok(TaskReport {
            href: TaskHref::new(self.pulp_href),
            state,
            progress: self
                .progress_reports
                .into_iter()
                .map(ProgressDto::into_domain)
                .collect(),
            error: self
                .error
                .as_ref()
                .and_then(error_description)
                .or_else(|| skipped.then(|| "the task was skipped".to_owned())),
            created_resources: self.created_resources,
        })
    }
}

impl ProgressDto {
    fn into_domain(self) -> ProgressReport {
        ProgressReport {
            code: self.code.unwrap_or_default(),
            message: self.message.unwrap_or_default(),
            done: self.done.unwrap_or(0),
            total: self.total,
        }
    }
}

pub(super) fn task_state(raw: &str) -> Option<TaskState> {
    Some(match raw {
        "waiting" => TaskState::Waiting,
        "running" => TaskState::Running,
        "canceling" => TaskState::Canceling,
        "completed" => TaskState::Completed,
        "failed" => TaskState::Failed,
        // A skipped task is final without having done its work.
        "canceled" | "skipped" => TaskState::Canceled,
        _ => return None,
    })
}

/// `error.description`, or the error itself when it has another shape.
fn error_description(error: &Value) -> Option<String> {
    match error {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Object(map) => Some(match map.get("description") {
            Some(Value::String(d)) => d.clone(),
            _ => error.to_string(),
        }),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
#[path = "dto_tests.rs"]
mod tests;
