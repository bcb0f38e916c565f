//! The shipped systemd unit (`deploy/repo-console.service`) as systemd itself reads it: no
//! unknown or misspelt directive, an executable that exists, and hardening that keeps the
//! service's exposure low (`systemd-analyze security`, offline).

use std::process::Command;

use crate::host_tools::required;

const UNIT: &str = include_str!("../../deploy/repo-console.service");
const INSTALLED_BINARY: &str = "/usr/local/bin/repo-console";

/// The unit with `ExecStart` pointing at the binary under test, in a directory of its own.
fn unit_under_test() -> (tempfile::TempDir, std::path::PathBuf) {
    assert!(
        UNIT.contains(&format!("ExecStart={INSTALLED_BINARY} ")),
        "the unit starts {INSTALLED_BINARY}"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("repo-console.service");
    let unit = UNIT.replace(INSTALLED_BINARY, env!("CARGO_BIN_EXE_repo-console"));
    std::fs::write(&path, unit).unwrap();
    (dir, path)
}

#[test]
#[ignore = "needs systemd"]
fn the_unit_verifies_cleanly() {
    let analyze = required("systemd-analyze", "systemd");
    let (_dir, unit) = unit_under_test();
    let verified = Command::new(&analyze)
        .arg("verify")
        .arg(&unit)
        .output()
        .unwrap();
    let complaints = String::from_utf8_lossy(&verified.stderr);
    assert!(
        verified.status.success() && complaints.trim().is_empty(),
        "systemd-analyze verify: {}\n{complaints}",
        verified.status
    );
}

#[test]
#[ignore = "needs systemd"]
fn the_unit_is_hardened() {
    let analyze = required("systemd-analyze", "systemd");
    let (_dir, unit) = unit_under_test();
    for directive in [
        "DynamicUser=yes",
        "ProtectSystem=strict",
        "StateDirectory=repo-console",
        "NoNewPrivileges=yes",
        "CapabilityBoundingSet=\n",
    ] {
        assert!(UNIT.contains(directive), "the unit sets {directive:?}");
    }
    // Exposure is reported from 0.0 (none) to 10.0; the threshold is in tenths: at most 2.0.
    let security = Command::new(&analyze)
        .args(["security", "--offline=yes", "--threshold=20"])
        .arg(&unit)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&security.stdout);
    let overall = report
        .lines()
        .find(|l| l.contains("Overall exposure level"))
        .unwrap_or("no overall exposure line");
    println!("{overall}");
    assert!(
        security.status.success(),
        "exposure above 2.0: {overall}\n{report}{}",
        String::from_utf8_lossy(&security.stderr)
    );
}

#[test]
fn every_setting_the_unit_passes_is_one_the_console_reads() {
    use repo_console::wiring::config::overrides::{env_name, settable_keys};
    use repo_console::wiring::config::{ALIASES, DEFAULT_TOML};
    let defaults: toml::Table = DEFAULT_TOML.parse().unwrap();
    let known: Vec<String> = settable_keys(&defaults)
        .iter()
        .map(|(section, key, _)| env_name(section, key))
        .chain(ALIASES.iter().filter_map(|a| a.env.map(str::to_owned)))
        .collect();
    let passed: Vec<&str> = UNIT
        .lines()
        .filter_map(|line| line.strip_prefix("Environment="))
        .filter_map(|assignment| assignment.split_once('=').map(|(name, _)| name))
        .collect();
    assert!(passed.len() >= 2, "{passed:?}");
    for name in passed {
        assert!(
            known.iter().any(|k| k == name),
            "{name} is not a setting of the console"
        );
    }
}
