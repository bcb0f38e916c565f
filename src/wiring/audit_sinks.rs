//! The audit sinks `audit.sink` can name. A new sink is one adapter file (implementing
//! [`crate::ports::AuditSink`]) plus one line in [`SINKS`].

use std::path::Path;
use std::sync::Arc;

use futures::future::{ready, BoxFuture, FutureExt};

use crate::adapters::audit_jsonl::JsonlAuditSink;
use crate::adapters::audit_stdout::StdoutAuditSink;
use crate::adapters::postgres::{self, PgAuditSink, PgDeployLock};
use crate::ports::{AuditSink, DeployLock};

use super::settings::AuditSettings;

/// A sink, and the deploy lock it brings when replicas share it (a database).
pub struct Built {
    pub sink: Arc<dyn AuditSink>,
    pub replica_lock: Option<Arc<dyn DeployLock>>,
}

/// Builds a sink from the `[audit]` settings (connecting to it if need be), or says why it
/// cannot.
type Build = for<'a> fn(&'a AuditSettings) -> BoxFuture<'a, Result<Built, String>>;

/// Every sink, by its name in `audit.sink`.
const SINKS: &[(&str, Build)] = &[
    ("jsonl", |audit| alone(JsonlAuditSink::new(&audit.path))),
    ("stdout", |_| alone(StdoutAuditSink::default())),
    ("postgres", |audit| shared_database(audit).boxed()),
];

/// A sink of one replica: the in-process deploy lock is enough.
fn alone(sink: impl AuditSink + 'static) -> BoxFuture<'static, Result<Built, String>> {
    let sink = Arc::new(sink);
    ready(Ok(Built {
        sink,
        replica_lock: None,
    }))
    .boxed()
}

/// The PostgreSQL sink, and the lock every replica takes in the same database.
async fn shared_database(audit: &AuditSettings) -> Result<Built, String> {
    let password = read_password(&audit.password_file)?;
    let db = postgres::connect(&audit.url, password.as_deref()).await?;
    Ok(Built {
        sink: Arc::new(PgAuditSink::new(db.clone())),
        replica_lock: Some(Arc::new(PgDeployLock::new(db))),
    })
}

fn read_password(path: &Path) -> Result<Option<String>, String> {
    if path.as_os_str().is_empty() {
        return Ok(None);
    }
    super::password_file::first_line(path)
        .map(Some)
        .map_err(|e| format!("cannot read audit.password_file {}: {e}", path.display()))
}

/// The names `audit.sink` accepts.
pub fn names() -> Vec<&'static str> {
    SINKS.iter().map(|(name, _)| *name).collect()
}

/// The sink the settings name.
pub async fn build(audit: &AuditSettings) -> Result<Built, String> {
    let (_, build) = SINKS
        .iter()
        .find(|(name, _)| *name == audit.sink)
        .ok_or_else(|| format!("no audit sink is named '{}'", audit.sink))?;
    build(audit).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn each_named_sink_is_built_and_says_where_it_writes() {
        let jsonl = AuditSettings {
            sink: "jsonl".into(),
            path: "/var/log/console/audit.jsonl".into(),
            url: String::new(),
            password_file: Default::default(),
        };
        let built = build(&jsonl).await.unwrap();
        assert_eq!(built.sink.target(), "/var/log/console/audit.jsonl");
        assert!(built.replica_lock.is_none());
        let stdout = AuditSettings {
            sink: "stdout".into(),
            ..jsonl.clone()
        };
        assert_eq!(
            build(&stdout).await.unwrap().sink.target(),
            "standard output"
        );
        assert_eq!(names(), ["jsonl", "stdout", "postgres"]);
        let unreachable = AuditSettings {
            sink: "postgres".into(),
            url: "postgres://nobody@127.0.0.1:1/none".into(),
            ..jsonl
        };
        let error = build(&unreachable).await.err().expect("no database there");
        assert!(
            error.starts_with("cannot connect to postgres://127.0.0.1:1/none"),
            "{error}"
        );
    }
}
