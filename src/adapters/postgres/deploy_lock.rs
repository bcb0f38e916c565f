//! `PgDeployLock`: a PostgreSQL session advisory lock per production distribution, held on
//! a connection of its own for the whole deploy. Released when the turn is dropped (unlock,
//! then the connection is closed), and by PostgreSQL itself when the connection is lost
//! (a replica killed mid-deploy, a network cut).

use async_trait::async_trait;
use sqlx::pool::PoolConnection;
use sqlx::{Connection, PgConnection, Postgres};

use crate::domain::repository::DistributionHref;
use crate::ports::{DeployLock, DeployTurn, LockError};

use super::Database;

/// The lock's 64-bit key: a hash of the distribution's href, in the console's namespace.
const LOCK: &str = "SELECT pg_advisory_lock(hashtextextended('repo-console deploy ' || $1, 0))";
const UNLOCK: &str = "SELECT pg_advisory_unlock(hashtextextended('repo-console deploy ' || $1, 0))";

pub struct PgDeployLock {
    db: Database,
}

impl PgDeployLock {
    pub fn new(db: Database) -> Self {
        Self { db }
    }

    fn error(&self, reason: impl ToString) -> LockError {
        LockError {
            target: self.db.target.clone(),
            reason: reason.to_string(),
        }
    }
}

#[async_trait]
impl DeployLock for PgDeployLock {
    async fn acquire(&self, distribution: &DistributionHref) -> Result<DeployTurn, LockError> {
        let connection: PoolConnection<Postgres> =
            self.db.pool.acquire().await.map_err(|e| self.error(e))?;
        // Detached: the connection never returns to the pool holding the lock.
        let mut connection = connection.detach();
        sqlx::query(LOCK)
            .bind(distribution.as_str())
            .execute(&mut connection)
            .await
            .map_err(|e| self.error(e))?;
        tracing::debug!(distribution = %distribution.as_str(), "cross-replica deploy lock taken");
        Ok(DeployTurn::new(Held {
            connection: Some(connection),
            key: distribution.as_str().to_owned(),
        }))
    }
}

/// The connection holding the lock.
struct Held {
    connection: Option<PgConnection>,
    key: String,
}

impl Drop for Held {
    fn drop(&mut self) {
        let Some(mut connection) = self.connection.take() else {
            return;
        };
        let key = std::mem::take(&mut self.key);
        let release = async move {
            if let Err(error) = sqlx::query(UNLOCK)
                .bind(&key)
                .execute(&mut connection)
                .await
            {
                tracing::warn!(%error, "cross-replica deploy lock: unlock failed; closing its connection releases it");
            }
            let _ = connection.close().await;
        };
        // Without a runtime, dropping the connection closes it, which releases the lock too.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(release);
        }
    }
}
