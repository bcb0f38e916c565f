//! PostgreSQL, shared by every replica: the audit sink ([`PgAuditSink`]), the
//! cross-replica deploy lock ([`PgDeployLock`]), the computed diffs ([`PgDiffStore`]), the
//! approval requests ([`PgRequestStore`]), the scheduled deploys ([`PgScheduleStore`]), the
//! checks pipelines report ([`PgCheckStore`]), the webhooks' event outbox ([`PgOutbox`]), the
//! CVE index of the exposure ([`PgCveIndex`]), the promotions' signed evidence
//! ([`PgEvidenceStore`]), the signed-in sessions ([`PgSessionStore`]), the rollbacks' pins
//! ([`PgPinStore`]) and what the console knows of the edges ([`PgEdgeStates`]).
//! One pool per process, connected and migrated at startup ([`connect`]).

mod audit;
mod audit_columns;
mod checks;
mod cve_index;
mod deploy_lock;
mod diffs;
mod edge_states;
mod evidence;
mod outbox;
mod pins;
mod requests;
mod schedules;
mod sessions;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

pub use audit::PgAuditSink;
pub use checks::PgCheckStore;
pub use cve_index::PgCveIndex;
pub use deploy_lock::PgDeployLock;
pub use diffs::PgDiffStore;
pub use edge_states::PgEdgeStates;
pub use evidence::PgEvidenceStore;
pub use outbox::PgOutbox;
pub use pins::PgPinStore;
pub use requests::PgRequestStore;
pub use schedules::PgScheduleStore;
pub use sessions::PgSessionStore;

/// The console's schema: versioned migrations (`migrations/`), applied at startup. sqlx
/// records them in `_sqlx_migrations` and holds an advisory lock while it migrates, so
/// replicas starting together apply each migration once.
static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// A connected, migrated database.
#[derive(Clone)]
pub struct Database {
    pub(crate) pool: PgPool,
    /// Where it is, without credentials: `postgres://host:port/database`.
    pub(crate) target: String,
}

/// Connects to `url` (`postgres://user@host:port/database?sslmode=verify-full&sslrootcert=ca.pem`
/// for TLS), with `password` when given (it wins over one in the URL), and applies the
/// migrations not applied yet.
pub async fn connect(url: &str, password: Option<&str>) -> Result<Database, String> {
    let mut options = PgConnectOptions::from_str(url)
        .map_err(|e| format!("'{}' is not a PostgreSQL URL: {e}", redacted(url)))?;
    if let Some(password) = password {
        options = options.password(password);
    }
    let target = format!(
        "postgres://{}:{}/{}",
        options.get_host(),
        options.get_port(),
        options.get_database().unwrap_or("")
    );
    let pool = PgPoolOptions::new()
        .max_connections(16)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options)
        .await
        .map_err(|e| format!("cannot connect to {target}: {e}"))?;
    MIGRATOR
        .run(&pool)
        .await
        .map_err(|e| format!("cannot migrate {target}: {e}"))?;
    tracing::info!(%target, "PostgreSQL connected and migrated");
    Ok(Database { pool, target })
}

/// The URL without its password, for messages.
fn redacted(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() => {
            let _ = parsed.set_password(Some("***"));
            parsed.to_string()
        }
        _ => url.to_owned(),
    }
}

impl Database {
    /// The migrations applied so far (version numbers, in order).
    pub async fn applied_migrations(&self) -> Result<Vec<i64>, sqlx::Error> {
        sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&self.pool)
            .await
    }
}
