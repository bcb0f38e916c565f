//! `repo-console audit verify` of the real binary: an intact log exits 0, a tampered one
//! exits 1 naming `line N` first, a log that cannot be read exits 2; the configured sink is
//! checked when no file is named.

use std::path::Path;
use std::process::{Command, Output};

use repo_console::adapters::files::audit::JsonlAuditSink;

use super::audit_chain_contract as contract;

fn verify(args: &[&str], env: &[(&str, &str)]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(["audit", "verify"])
        .args(args)
        .env("HOME", home.path())
        .envs(env.iter().copied())
        .output()
        .expect("the binary runs")
}

fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

async fn written_log(dir: &Path) -> String {
    let path = dir.join("audit.jsonl");
    contract::write_lines(&JsonlAuditSink::new(&path)).await;
    path.to_str().unwrap().to_owned()
}

#[tokio::test]
async fn an_intact_file_exits_0_and_prints_its_head() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_log(dir.path()).await;
    let out = verify(&["--path", &path], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        said(&out).contains("intact: 6 lines, 6 chained; head 6:"),
        "{}",
        said(&out)
    );
}

#[tokio::test]
async fn a_changed_line_exits_1_and_names_the_line_and_its_time_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_log(dir.path()).await;
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[2] = lines[2].replace("\"rhel9-baseos\"", "\"rhel8-baseos\"");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let out = verify(&["--path", &path], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        said(&out).starts_with("line 3 (2026-11-20T08:03:00Z) was changed"),
        "{}",
        said(&out)
    );
}

#[tokio::test]
async fn the_configured_file_is_checked_and_a_head_finds_lines_cut_from_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = written_log(dir.path()).await;
    let setting = format!("audit.path={path}");
    let out = verify(&["--set", &setting], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let head = said(&out)
        .rsplit_once("head ")
        .map(|(_, head)| head.trim().to_owned())
        .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
    assert_eq!(
        verify(&["--set", &setting], &[]).status.code(),
        Some(0),
        "the chain alone cannot tell"
    );
    let out = verify(&["--set", &setting, "--head", &head], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(said(&out).starts_with("line 4 "), "{}", said(&out));
}

#[test]
fn a_missing_file_or_a_malformed_head_exits_2_saying_why() {
    let out = verify(&["--path", "/nonexistent/audit.jsonl"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no such file"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    std::fs::write(&path, "").unwrap();
    let out = verify(&["--path", path.to_str().unwrap(), "--head", "7:zz"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--head 7:zz"));
}
