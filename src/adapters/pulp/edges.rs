//! [`PulpEdges`]: the edge Pulps port over Pulp's REST API. Each edge is reached with a
//! [`PulpClient`] of its own (its login session, its CA); the replication is its
//! upstream-pulp's `replicate/`, answered by a task group; what a content app serves is the
//! sha256 of `repodata/repomd.xml` at the distribution's base path, read without credentials
//! (as dnf reads it). The central Pulp's content origin is the one Pulp gives in each
//! distribution's `base_url`.

use std::collections::HashMap;

use async_trait::async_trait;
use hyper::Method;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::client::PulpClient;
use super::transport::errors::transport_error;
use super::transport::http::{HttpTransport, SetupError};
use super::transport::settings::PulpSettings;
use crate::domain::edge::{EdgeName, EdgeRead, MetadataDigest, ReplicationEnd, ReplicationTask};
use crate::ports::{EdgeError, EdgeReplicator, UpstreamError};

/// The metadata index every RPM distribution publishes.
const REPOMD: &str = "repodata/repomd.xml";

/// One edge, as the adapter reaches it.
pub struct PulpEdge {
    pub name: EdgeName,
    /// Its API, with its own settings (credentials, CA, timeouts).
    pub api: PulpSettings,
    /// The name of its upstream-pulp that copies the central Pulp.
    pub upstream: String,
    /// Scheme, host and port of its content app.
    pub content_origin: String,
}

struct Reached {
    client: PulpClient,
    content: HttpTransport,
    upstream: String,
    content_origin: String,
}

/// The edges of one central Pulp.
pub struct PulpEdges {
    central: PulpClient,
    central_content: HttpTransport,
    edges: HashMap<EdgeName, Reached>,
}

impl PulpEdges {
    /// Builds the clients; nothing is sent until the first call.
    pub fn new(central: PulpSettings, edges: Vec<PulpEdge>) -> Result<Self, SetupError> {
        let central_content = HttpTransport::new(&central)?;
        let mut reached = HashMap::new();
        for edge in edges {
            let content = HttpTransport::new(&edge.api)?;
            let client = PulpClient::new(edge.api)?;
            reached.insert(
                edge.name,
                Reached {
                    client,
                    content,
                    upstream: edge.upstream,
                    content_origin: edge.content_origin.trim_end_matches('/').to_owned(),
                },
            );
        }
        Ok(Self {
            central: PulpClient::new(central)?,
            central_content,
            edges: reached,
        })
    }

    fn edge(&self, name: &EdgeName) -> Result<&Reached, EdgeError> {
        self.edges
            .get(name)
            .ok_or_else(|| EdgeError::Unknown(name.clone()))
    }

    /// The href of the upstream-pulp `edge` replicates from (refused when it has none).
    async fn upstream_href(&self, edge: &EdgeName) -> Result<String, EdgeError> {
        let reached = self.edge(edge)?;
        let client = &reached.client;
        let list = client
            .url_for(&format!(
                "upstream-pulps/?name={}&fields=pulp_href",
                urlencode(&reached.upstream)
            ))
            .map_err(edge_error)?;
        let found: ListDto<HrefDto> = client.get_json(&list).await.map_err(edge_error)?;
        match found.results.into_iter().next() {
            Some(upstream) => Ok(upstream.pulp_href),
            None => Err(EdgeError::Refused(format!(
                "it has no upstream-pulp named '{}': create it on the edge (POST /pulp/api/v3/upstream-pulps/) or correct the edge's upstream key",
                reached.upstream
            ))),
        }
    }
}

#[derive(Deserialize)]
struct ListDto<T> {
    results: Vec<T>,
}

#[derive(Deserialize)]
struct HrefDto {
    pulp_href: String,
}

#[derive(Deserialize)]
struct TaskGroupRefDto {
    task_group: String,
}

#[derive(Deserialize)]
struct TaskGroupDto {
    all_tasks_dispatched: bool,
    #[serde(default)]
    waiting: u64,
    #[serde(default)]
    running: u64,
    #[serde(default)]
    canceling: u64,
    #[serde(default)]
    failed: u64,
    #[serde(default)]
    canceled: u64,
    #[serde(default)]
    tasks: Vec<MinimalTaskDto>,
}

impl TaskGroupDto {
    /// Every task of the group ended. Measured on pulpcore 3.123: a replication's group keeps
    /// `all_tasks_dispatched: false` after its end, so its last task, `finalize_replication`,
    /// ended, is the other sign that nothing more will be dispatched.
    fn finished(&self) -> bool {
        let finalized = self.tasks.iter().any(|t| {
            t.name.ends_with("finalize_replication")
                && matches!(
                    t.state.as_str(),
                    "completed" | "failed" | "canceled" | "skipped"
                )
        });
        (self.all_tasks_dispatched || finalized)
            && self.waiting + self.running + self.canceling == 0
    }
}

#[derive(Deserialize)]
struct MinimalTaskDto {
    pulp_href: String,
    state: String,
    #[serde(default)]
    name: String,
}

#[derive(Deserialize)]
struct TaskDto {
    #[serde(default)]
    error: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct BaseUrlDto {
    base_url: Option<String>,
}

/// An upstream failure in the edge port's words: no answer is unreachable, any answer a
/// refusal.
fn edge_error(error: UpstreamError) -> EdgeError {
    match error {
        UpstreamError::Timeout(text)
        | UpstreamError::Unreachable(text)
        | UpstreamError::Interrupted(text) => EdgeError::Unreachable(text),
        other => EdgeError::Refused(other.to_string()),
    }
}

/// The sha256 of `body`, as a digest.
fn digest_of(body: &[u8]) -> MetadataDigest {
    let hex = format!("{:x}", Sha256::digest(body));
    MetadataDigest::parse(&hex).expect("a sha256 is 64 hex digits")
}

/// What a content app answered for `url`: a digest, nothing there, or no answer.
async fn read_metadata(transport: &HttpTransport, url: &str) -> EdgeRead {
    match transport.send(Method::GET, url, Vec::new(), None).await {
        Ok(response) if response.status.is_success() => EdgeRead::Serves(digest_of(&response.body)),
        Ok(response) if response.status.as_u16() == 404 => EdgeRead::Missing,
        Ok(response) => EdgeRead::Unreachable(format!(
            "its content app answered {} for {url}",
            response.status
        )),
        Err(error) => EdgeRead::Unreachable(transport_error(error).to_string()),
    }
}

fn content_url(origin: &str, base_path: &str) -> String {
    format!(
        "{origin}/pulp/content/{}/{REPOMD}",
        base_path.trim_matches('/')
    )
}

#[async_trait]
impl EdgeReplicator for PulpEdges {
    async fn answers(&self, edge: &EdgeName) -> Result<(), EdgeError> {
        self.upstream_href(edge).await.map(|_| ())
    }

    async fn replicate(&self, edge: &EdgeName) -> Result<ReplicationTask, EdgeError> {
        let upstream = self.upstream_href(edge).await?;
        let client = &self.edge(edge)?.client;
        let url = client
            .url_for(&format!("{upstream}replicate/"))
            .map_err(edge_error)?;
        let response = client
            .call(Method::POST, &url, Some(&json!({})))
            .await
            .map_err(edge_error)?;
        let group: TaskGroupRefDto = serde_json::from_slice(&response.body).map_err(|e| {
            EdgeError::Refused(format!("its answer to replicate/ is not a task group: {e}"))
        })?;
        Ok(ReplicationTask::new(group.task_group))
    }

    async fn replication(
        &self,
        edge: &EdgeName,
        task: &ReplicationTask,
    ) -> Result<ReplicationEnd, EdgeError> {
        let client = &self.edge(edge)?.client;
        let url = client.url_for(task.as_str()).map_err(edge_error)?;
        let group: TaskGroupDto = client.get_json(&url).await.map_err(edge_error)?;
        if !group.finished() {
            return Ok(ReplicationEnd::Running);
        }
        if group.failed + group.canceled == 0 {
            return Ok(ReplicationEnd::Completed);
        }
        let Some(failed) = group
            .tasks
            .iter()
            .find(|t| t.state == "failed" || t.state == "canceled")
        else {
            return Ok(ReplicationEnd::Failed(format!(
                "{} of its tasks failed and {} were cancelled",
                group.failed, group.canceled
            )));
        };
        let url = client.url_for(&failed.pulp_href).map_err(edge_error)?;
        let detail: TaskDto = client.get_json(&url).await.map_err(edge_error)?;
        let description = detail
            .error
            .as_ref()
            .and_then(|e| e.get("description"))
            .and_then(|d| d.as_str())
            .unwrap_or(failed.state.as_str())
            .to_owned();
        Ok(ReplicationEnd::Failed(format!(
            "task {} ({}) {}: {description}",
            failed.pulp_href, failed.name, failed.state
        )))
    }

    async fn central_digest(&self, base_path: &str) -> Result<Option<MetadataDigest>, EdgeError> {
        let url = self
            .central
            .url_for(&format!(
                "distributions/rpm/rpm/?base_path={}&fields=base_url",
                urlencode(base_path)
            ))
            .map_err(edge_error)?;
        let found: ListDto<BaseUrlDto> = self.central.get_json(&url).await.map_err(edge_error)?;
        let Some(base_url) = found.results.into_iter().next().and_then(|d| d.base_url) else {
            return Ok(None);
        };
        let url = format!("{}/{REPOMD}", base_url.trim_end_matches('/'));
        match read_metadata(&self.central_content, &url).await {
            EdgeRead::Serves(digest) => Ok(Some(digest)),
            EdgeRead::Missing => Ok(None),
            EdgeRead::Unreachable(why) => Err(EdgeError::Unreachable(format!(
                "the central content app: {why}"
            ))),
        }
    }

    async fn edge_read(&self, edge: &EdgeName, base_path: &str) -> EdgeRead {
        match self.edge(edge) {
            Ok(reached) => {
                let url = content_url(&reached.content_origin, base_path);
                read_metadata(&reached.content, &url).await
            }
            Err(error) => EdgeRead::Unreachable(error.to_string()),
        }
    }
}

/// Percent-encodes a query value (names and base paths: letters, digits and a few marks).
fn urlencode(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_s_metadata_is_read_under_its_content_origin() {
        assert_eq!(
            content_url("http://127.0.0.1:8081", "/rc-edge-prod/"),
            "http://127.0.0.1:8081/pulp/content/rc-edge-prod/repodata/repomd.xml"
        );
    }

    #[test]
    fn a_replication_ends_when_its_finalize_task_ended_and_nothing_waits() {
        let group =
            |body: serde_json::Value| -> TaskGroupDto { serde_json::from_value(body).unwrap() };
        let ended = group(
            json!({"all_tasks_dispatched": false, "waiting": 0, "running": 0,
            "completed": 4, "tasks": [
                {"pulp_href": "/t/1/", "name": "pulpcore.app.tasks.replica.replicate_distributions", "state": "completed"},
                {"pulp_href": "/t/2/", "name": "pulpcore.app.tasks.replica.finalize_replication", "state": "completed"}]}),
        );
        assert!(ended.finished());
        let syncing = group(
            json!({"all_tasks_dispatched": false, "waiting": 1, "running": 1,
            "tasks": [{"pulp_href": "/t/1/", "name": "pulpcore.app.tasks.replica.replicate_distributions", "state": "completed"}]}),
        );
        assert!(!syncing.finished());
        let started = group(json!({"all_tasks_dispatched": false, "tasks": []}));
        assert!(!started.finished());
    }

    #[test]
    fn the_digest_is_the_sha256_of_the_bytes_served() {
        assert_eq!(
            digest_of(b"").as_str(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn a_query_value_cannot_add_a_parameter() {
        assert_eq!(urlencode("a&b=c d"), "a%26b%3Dc%20d");
    }
}
