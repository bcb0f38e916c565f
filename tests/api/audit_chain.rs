//! The audit chain of the JSON Lines file and of the in-memory sink (the contract of
//! tests/common/audit_chain_contract.rs), and the file's own cases: lines written before the
//! chain, a torn line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::memory::RecordingAuditSink;
use repo_console::domain::audit_chain::verify::BreakKind;
use repo_console::ports::audit_chain::ChainAnchors;
use repo_console::ports::AuditSink;

use super::audit_chain_contract::{self as contract, Tamper};

/// Tampers with the file's lines as an editor would.
struct FileTamper(PathBuf);

impl FileTamper {
    fn edit(&self, change: impl FnOnce(&mut Vec<String>)) {
        let text = std::fs::read_to_string(&self.0).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        change(&mut lines);
        std::fs::write(&self.0, lines.join("\n") + "\n").unwrap();
    }
}

#[async_trait]
impl Tamper for FileTamper {
    async fn change_operator(&self, n: usize) {
        self.edit(|lines| lines[n - 1] = lines[n - 1].replace("\"alice\"", "\"mallory\""));
    }
    async fn remove(&self, n: usize) {
        self.edit(|lines| drop(lines.remove(n - 1)));
    }
    async fn swap(&self, n: usize) {
        self.edit(|lines| lines.swap(n - 1, n));
    }
}

struct MemoryTamper(Arc<RecordingAuditSink>);

#[async_trait]
impl Tamper for MemoryTamper {
    async fn change_operator(&self, n: usize) {
        let mut lines = self.0.lines();
        lines[n - 1] = lines[n - 1].replace("\"alice\"", "\"mallory\"");
        self.0.set_lines(lines);
    }
    async fn remove(&self, n: usize) {
        let mut lines = self.0.lines();
        lines.remove(n - 1);
        self.0.set_lines(lines);
    }
    async fn swap(&self, n: usize) {
        let mut lines = self.0.lines();
        lines.swap(n - 1, n);
        self.0.set_lines(lines);
    }
}

fn file_sink(dir: &Path) -> (JsonlAuditSink, FileTamper) {
    let path = dir.join("audit.jsonl");
    (JsonlAuditSink::new(&path), FileTamper(path))
}

fn memory_sink() -> (Arc<RecordingAuditSink>, MemoryTamper) {
    let sink = Arc::new(RecordingAuditSink::default());
    (sink.clone(), MemoryTamper(sink))
}

#[tokio::test]
async fn a_fresh_file_and_memory_log_are_intact() {
    let dir = tempfile::tempdir().unwrap();
    contract::a_fresh_log_is_intact_and_names_its_head(&file_sink(dir.path()).0).await;
    contract::a_fresh_log_is_intact_and_names_its_head(memory_sink().0.as_ref()).await;
}

#[tokio::test]
async fn a_changed_field_is_reported_at_its_line_in_the_file_and_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    contract::a_changed_field_is_reported_at_its_line(&sink, &tamper).await;
    let (sink, tamper) = memory_sink();
    contract::a_changed_field_is_reported_at_its_line(sink.as_ref(), &tamper).await;
}

#[tokio::test]
async fn a_removed_line_is_reported_at_its_place_in_the_file_and_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    contract::a_removed_line_is_reported_at_its_place(&sink, &tamper).await;
    let (sink, tamper) = memory_sink();
    contract::a_removed_line_is_reported_at_its_place(sink.as_ref(), &tamper).await;
}

#[tokio::test]
async fn two_swapped_lines_are_reported_in_the_file_and_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    contract::two_swapped_lines_are_reported_at_the_first(&sink, &tamper).await;
    let (sink, tamper) = memory_sink();
    contract::two_swapped_lines_are_reported_at_the_first(sink.as_ref(), &tamper).await;
}

#[tokio::test]
async fn two_sinks_on_one_file_at_once_keep_one_chain() {
    let dir = tempfile::tempdir().unwrap();
    let (one, _) = file_sink(dir.path());
    let (other, _) = file_sink(dir.path());
    contract::two_writers_at_once_keep_one_chain(&one, &other).await;
}

#[tokio::test]
async fn lines_written_before_the_chain_are_its_start_and_stay_checked() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    let old = r#"{"deploy_id":"old-1","timestamp":"2026-01-01T00:00:00Z","operator":"alice"}"#;
    std::fs::write(&tamper.0, format!("{old}\n{old}\n")).unwrap();
    contract::write_lines(&sink).await;
    let reports = contract::all_intact(&sink).await;
    let summary = reports[0].verdict.clone().unwrap();
    assert_eq!(
        (summary.lines, summary.before_chain, summary.chained),
        (2 + contract::LINES as u64, 2, contract::LINES as u64)
    );
    tamper.change_operator(1).await;
    let broken = sink.verify_chain(&ChainAnchors::new()).await.unwrap()[0]
        .verdict
        .clone()
        .unwrap_err();
    assert_eq!((broken.line, broken.kind), (3, BreakKind::StartMismatch));
}

#[tokio::test]
async fn a_line_torn_by_a_crash_is_named_by_the_next_and_the_chain_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    contract::write_lines(&sink).await;
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&tamper.0)
        .unwrap();
    std::io::Write::write_all(&mut file, br#"{"deploy_id":"cut"#).unwrap();
    drop(file);
    contract::write_lines(&sink).await;
    let reports = contract::all_intact(&sink).await;
    let summary = reports[0].verdict.clone().unwrap();
    assert_eq!(summary.chained, 2 * contract::LINES as u64);
    assert_eq!(summary.lines, 2 * contract::LINES as u64 + 1);
}

#[tokio::test]
async fn a_head_kept_from_an_earlier_check_finds_lines_cut_from_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let (sink, tamper) = file_sink(dir.path());
    contract::write_lines(&sink).await;
    let head = contract::all_intact(&sink).await[0]
        .verdict
        .clone()
        .unwrap()
        .head
        .unwrap();
    tamper.edit(|lines| lines.truncate(4));
    let anchors = ChainAnchors::from([(sink.target(), head)]);
    let broken = sink.verify_chain(&anchors).await.unwrap()[0]
        .verdict
        .clone()
        .unwrap_err();
    assert_eq!(
        (broken.line, broken.kind),
        (
            4,
            BreakKind::Truncated {
                anchor: contract::LINES as u64
            }
        )
    );
}
