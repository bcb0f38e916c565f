//! A database of its own per test, in the test Pulp's PostgreSQL cluster (never Pulp's own
//! database): `repo_console_<pid>_<n>`, dropped when the guard is.

use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use super::support::env_file_value;

pub struct TestDatabase {
    pub url: String,
    name: String,
    port: String,
}

/// A fresh database, or `None` after printing why the test is skipped (panics instead when
/// `CI=true`: CI must not pass by skipping).
pub fn database_or_skip(test: &str) -> Option<TestDatabase> {
    let port = std::env::var("RC_TEST_PULP_PG_PORT")
        .ok()
        .filter(|p| !p.is_empty())
        .or_else(|| env_file_value("PULP_PG_PORT"));
    let Some(port) = port else {
        let why = "no PostgreSQL: set RC_TEST_PULP_PG_PORT (the test Pulp's cluster)";
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{test}: {why}");
        }
        eprintln!("SKIPPED {test}: {why}");
        return None;
    };
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
    Some(database)
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
