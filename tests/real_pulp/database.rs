//! A database of its own per test, in the test Pulp's PostgreSQL cluster (never Pulp's own
//! database): `repo_console_<pid>_<n>`, dropped when the guard is.

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use super::support::env_file_value;
use crate::needs::missing;

pub struct TestDatabase {
    pub url: String,
    name: String,
    port: String,
}

/// The port of the test Pulp's PostgreSQL cluster; fails the test when it is unknown (its
/// `#[ignore = "needs PostgreSQL"]` keeps it from running unasked).
pub fn required_postgres_port() -> String {
    std::env::var("RC_TEST_PULP_PG_PORT")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| env_file_value("PULP_PG_PORT"))
        .unwrap_or_else(|| {
            missing(
                "PostgreSQL",
                "its port is unknown: set RC_TEST_PULP_PG_PORT (the test Pulp's \
                 cluster) or run scripts/pulp/up.sh to write target/pulp/env",
            )
        })
}

/// A fresh database in the test Pulp's cluster; fails the test when there is no cluster.
pub fn required_database() -> TestDatabase {
    let port = required_postgres_port();
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let name = format!(
        "repo_console_{}_{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    );
    let database = TestDatabase {
        url: format!("postgres://postgres@127.0.0.1:{port}/{name}"),
        name,
        port,
    };
    database.admin(&format!("DROP DATABASE IF EXISTS {}", database.name));
    database.admin(&format!("CREATE DATABASE {}", database.name));
    database
}

impl TestDatabase {
    /// Runs one statement in the cluster's `postgres` database (trust auth on 127.0.0.1).
    fn admin(&self, sql: &str) {
        self.psql("postgres", sql);
    }

    /// Runs one statement in this database; answers its output (unaligned, tuples only).
    pub fn query(&self, sql: &str) -> String {
        self.psql(&self.name, sql)
    }

    fn psql(&self, database: &str, sql: &str) -> String {
        // The cluster's own client when installed where scripts/pulp puts PostgreSQL 15.
        let versioned = std::path::Path::new("/usr/lib/postgresql/15/bin/psql");
        let psql = if versioned.exists() {
            versioned
        } else {
            std::path::Path::new("psql")
        };
        let out = Command::new(psql)
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port,
                "-U",
                "postgres",
                "-d",
                database,
            ])
            .args(["-v", "ON_ERROR_STOP=1", "-Atc", sql])
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }
}

impl TestDatabase {
    /// Drops the database now, ending its connections: to the console, an audit store that is
    /// gone.
    pub fn drop_now(&self) {
        self.admin(&format!(
            "DROP DATABASE IF EXISTS {} WITH (FORCE)",
            self.name
        ));
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        self.drop_now();
    }
}
