//! [`PulpClient`]: the Pulp adapter's handle, its URLs and its request helpers.
//! The [`crate::ports::RepositoryManager`] methods are in `manager.rs`.

use std::num::NonZeroUsize;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use hyper::body::Bytes;
use hyper::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::dto::TaskRefDto;
use crate::adapters::pulp::transport::errors::{decode_error, status_error_at};
use crate::adapters::pulp::transport::http::{HttpTransport, RawResponse, SetupError};
use crate::adapters::pulp::transport::memo::Memo;
use crate::adapters::pulp::transport::operation::pulp_operation;
use crate::adapters::pulp::transport::session::Session;
use crate::adapters::pulp::transport::settings::PulpSettings;
use crate::domain::content::kind::ContentType;
use crate::domain::repository::{Publication, PublicationHref, RepoId, TaskHref};
use crate::ports::{EventMetrics, UpstreamError};

/// Publications remembered (about 200 bytes each).
const PUBLICATIONS_KEPT: NonZeroUsize = NonZeroUsize::new(50_000).expect("not zero");
/// Repository types remembered (a few bytes each).
const REPO_TYPES_KEPT: NonZeroUsize = NonZeroUsize::new(50_000).expect("not zero");
/// Usernames remembered.
const USERS_KEPT: NonZeroUsize = NonZeroUsize::new(10_000).expect("not zero");

/// Talks to a Pulp 3 server with pulp_rpm and, where installed, pulp_deb over its REST API.
pub struct PulpClient {
    pub(super) settings: PulpSettings,
    session: Session,
    /// Publications never change upstream, so each is read once.
    pub(super) publications: Memo<PublicationHref, Publication>,
    /// Usernames by user href, for the records of changes.
    pub(super) users: Memo<String, String>,
    /// How many distributions of each content type (in [`ContentType::ALL`]'s order) the last
    /// listing of all of them found: the next one asks for all its pages at once.
    pub(super) distributions_seen: [AtomicU64; ContentType::ALL.len()],
    /// The content plugins this Pulp has (`installed.rs`), read once.
    pub(super) plugins_installed: tokio::sync::OnceCell<Vec<ContentType>>,
    /// The content type of each repository read, by id.
    pub(super) repo_types: Memo<RepoId, ContentType>,
    /// Held while a repository's type is looked up (`installed.rs`).
    pub(super) type_lookup: tokio::sync::Mutex<()>,
    /// Where each request's duration is reported; `None`: nowhere (tools and tests).
    metrics: Option<Arc<dyn EventMetrics>>,
}

impl std::fmt::Debug for PulpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PulpClient")
            .field("settings", &self.settings)
            .finish_non_exhaustive()
    }
}

impl PulpClient {
    /// Builds the client; nothing is sent until the first call (which logs in).
    pub fn new(settings: PulpSettings) -> Result<Self, SetupError> {
        if !(settings.base_url.starts_with("http://") || settings.base_url.starts_with("https://"))
        {
            return Err(SetupError(format!(
                "the Pulp base URL '{}' must start with http:// or https://",
                settings.base_url
            )));
        }
        let transport = HttpTransport::new(&settings)?;
        let session = Session::new(transport, &settings);
        Ok(Self {
            settings,
            session,
            publications: Memo::new(PUBLICATIONS_KEPT),
            users: Memo::new(USERS_KEPT),
            distributions_seen: ContentType::ALL.map(|_| AtomicU64::new(0)),
            plugins_installed: tokio::sync::OnceCell::new(),
            repo_types: Memo::new(REPO_TYPES_KEPT),
            type_lookup: tokio::sync::Mutex::new(()),
            metrics: None,
        })
    }

    /// The client, reporting the duration of each request to `metrics`
    /// (`repo_console_pulp_request_duration_seconds`).
    pub fn measured_by(mut self, metrics: Arc<dyn EventMetrics>) -> Self {
        self.metrics = Some(metrics);
        self
    }

    /// How many sessions were opened so far (each login costs a password check upstream).
    pub fn login_count(&self) -> u64 {
        self.session.login_count()
    }

    /// The full URL of an href (`/pulp/api/v3/…`) or of a path relative to the API root.
    pub(super) fn url_for(&self, path: &str) -> Result<String, UpstreamError> {
        if !path.starts_with('/') {
            return Ok(format!(
                "{}{}{}",
                self.settings.base(),
                self.settings.api_path(),
                path
            ));
        }
        let suspicious = path.contains("..")
            || path.contains("://")
            || path.starts_with("//")
            || path
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '#');
        if suspicious {
            return Err(
                UpstreamError::BadResponse(format!("'{path}' is not a Pulp address")).logged(),
            );
        }
        Ok(format!("{}{}", self.settings.base(), path))
    }

    /// Sends a request; any status but 2xx becomes an error carrying Pulp's explanation.
    /// Within a [`crate::ports::correlation`] scope the transport adds `Correlation-ID`.
    pub(super) async fn call(
        &self,
        method: Method,
        url: &str,
        body: Option<&Value>,
    ) -> Result<RawResponse, UpstreamError> {
        let body = body.map(|b| Bytes::from(b.to_string()));
        let sent = std::time::Instant::now();
        let response = self.session.request(method.clone(), url, body).await;
        let status = response.as_ref().ok().map(|r| r.status.as_u16());
        if let Some(metrics) = &self.metrics {
            let operation = pulp_operation(method.as_str(), url);
            metrics.upstream_request(operation, status, sent.elapsed());
        }
        let response = response?;
        tracing::debug!(%method, %url, status = response.status.as_u16(), "pulp answered");
        if response.status.is_success() {
            Ok(response)
        } else {
            Err(status_error_at(
                response.status.as_u16(),
                &response.body,
                url,
            ))
        }
    }

    pub(super) async fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
    ) -> Result<T, UpstreamError> {
        let response = self.call(Method::GET, url, None).await?;
        serde_json::from_slice(&response.body).map_err(|e| decode_error(&format!("GET {url}"), &e))
    }

    /// Starts an asynchronous operation (answered `202 {"task": href}`).
    pub(super) async fn start_task(
        &self,
        method: Method,
        url: &str,
        body: &Value,
    ) -> Result<TaskHref, UpstreamError> {
        let response = self.call(method.clone(), url, Some(body)).await?;
        let task: TaskRefDto = serde_json::from_slice(&response.body)
            .map_err(|e| decode_error(&format!("{method} {url} (expected a task)"), &e))?;
        Ok(TaskHref::new(task.task))
    }
}
