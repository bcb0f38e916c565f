//! Where the demo keeps what it writes. The demo's upstream starts afresh at every start, so
//! an audit file remembering an earlier run's deploys would report production "changed
//! outside the console" on the first page. Unless a layer above the built-in defaults sets
//! `audit.path`, the demo's audit, approval requests and outbox go to a fresh temporary
//! directory.

use std::path::PathBuf;

use crate::wiring::config::settings::{AuditSettings, Config};

/// Moves the audit (and what lives beside it) of a demo run into a fresh directory under the
/// system's temporary directory, and answers it; `None` when the console keeps its own
/// (a real Pulp, `audit.path` set, or a sink that writes no file).
pub fn place(config: &mut Config) -> Result<Option<PathBuf>, String> {
    if !config.uses_demo() || config.audit_path_set || config.audit.sink != "jsonl" {
        return Ok(None);
    }
    let dir = std::env::temp_dir().join(format!("repo-console-demo-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).map_err(|e| {
        format!(
            "cannot create the demo's directory {} (or set audit.path): {e}",
            dir.display()
        )
    })?;
    let beside_audit = config.diffs.dir == beside(&config.audit, "diffs");
    config.audit.path = dir.join("audit.jsonl");
    if beside_audit {
        config.diffs.dir = dir.join("diffs");
    }
    Ok(Some(dir))
}

fn beside(audit: &AuditSettings, name: &str) -> PathBuf {
    let parent = audit.path.parent().unwrap_or(std::path::Path::new(""));
    parent.join(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wiring::config::{load, Overrides};

    #[test]
    fn the_demo_writes_into_a_fresh_directory_each_start() {
        let mut first = load(&Overrides::default()).unwrap();
        let mut second = first.clone();
        let a = place(&mut first)
            .unwrap()
            .expect("the demo moves its audit");
        let b = place(&mut second)
            .unwrap()
            .expect("the demo moves its audit");
        assert_ne!(a, b);
        assert_eq!(first.audit.path, a.join("audit.jsonl"));
        assert_eq!(first.audit.requests_path(), a.join("requests.jsonl"));
        assert_eq!(first.diffs.dir, a.join("diffs"));
        std::fs::remove_dir_all(a).unwrap();
        std::fs::remove_dir_all(b).unwrap();
    }

    #[test]
    fn an_audit_path_set_above_the_defaults_is_kept_on_the_demo() {
        let overrides = Overrides::default().flag("audit.path", "kept/audit.jsonl");
        let mut config = load(&overrides).unwrap();
        assert_eq!(place(&mut config).unwrap(), None);
        assert_eq!(config.audit.path, PathBuf::from("kept/audit.jsonl"));
    }

    #[test]
    fn a_real_pulp_keeps_the_default_audit_path() {
        let overrides = Overrides::default().flag("pulp.base_url", "https://pulp.example.com");
        let mut config = load(&overrides).unwrap();
        assert_eq!(place(&mut config).unwrap(), None);
        assert_eq!(config.audit.path, PathBuf::from("audit.jsonl"));
    }
}
