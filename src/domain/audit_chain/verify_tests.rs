use serde_json::{json, Value};

use super::*;
use crate::domain::audit_chain::seal::{next_after, seal, Next, StartDigest};

/// A chained log of `n` lines written as the writers write them, after `legacy` lines.
fn log(legacy: &[&str], n: usize) -> Vec<String> {
    let mut lines: Vec<String> = legacy.iter().map(|l| (*l).to_owned()).collect();
    for i in 0..n {
        lines.push(append(&lines, &record(i)));
    }
    lines
}

fn record(i: usize) -> Value {
    json!({
        "deploy_id": format!("d{i}"),
        "timestamp": format!("2026-11-{:02}T10:00:00Z", i + 1),
        "operator": "alice",
        "target_version": i,
    })
}

/// The next line as a writer seals it from the end of `lines`.
fn append(lines: &[String], record: &Value) -> String {
    let newest: Vec<&[u8]> = lines
        .iter()
        .rev()
        .filter(|l| !l.is_empty())
        .take(2)
        .map(String::as_bytes)
        .collect();
    let next = next_after(&newest).unwrap_or_else(|| {
        let mut digest = StartDigest::default();
        lines.iter().for_each(|l| digest.add(l.as_bytes()));
        digest.start()
    });
    seal(record, &next).unwrap()
}

fn verify(lines: &[String]) -> Result<ChainSummary, ChainBreak> {
    verify_lines(lines.iter().map(String::as_bytes), None)
}

fn broken_at(lines: &[String]) -> (u64, BreakKind) {
    let broken = verify(lines).expect_err("the change is found");
    (broken.line, broken.kind)
}

#[test]
fn an_untouched_log_is_intact_and_its_head_is_its_last_line() {
    let lines = log(&[], 5);
    let summary = verify(&lines).unwrap();
    assert_eq!(
        (summary.lines, summary.chained, summary.before_chain),
        (5, 5, 0)
    );
    assert_eq!(summary.head.unwrap().line, 5);
    let first: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(
        first["chain"]["start"]["lines_before"], 0,
        "the first line names its start"
    );
}

#[test]
fn one_changed_field_is_reported_at_its_line_with_its_time() {
    let mut lines = log(&[], 5);
    lines[2] = lines[2].replace("\"alice\"", "\"mallory\"");
    let broken = verify(&lines).unwrap_err();
    assert_eq!((broken.line, &broken.kind), (3, &BreakKind::Changed));
    assert!(
        broken
            .to_string()
            .starts_with("line 3 (2026-11-03T10:00:00Z) was changed"),
        "{broken}"
    );
}

#[test]
fn a_changed_line_whose_hash_was_rewritten_shows_at_the_next_line() {
    let mut lines = log(&[], 4);
    let mut value: Value = serde_json::from_str(&lines[1]).unwrap();
    value["operator"] = json!("mallory");
    let next = Next::After {
        prev: serde_json::from_value(value["chain"]["prev_sha256"].clone()).unwrap(),
        torn: None,
    };
    value.as_object_mut().unwrap().remove("chain");
    lines[1] = seal(&value, &next).unwrap();
    assert_eq!(broken_at(&lines), (3, BreakKind::NotFollowing));
}

#[test]
fn a_removed_line_is_reported_at_the_line_that_took_its_place() {
    let mut lines = log(&[], 5);
    lines.remove(3);
    assert_eq!(broken_at(&lines), (4, BreakKind::NotFollowing));
    let mut first_gone = log(&[], 3);
    first_gone.remove(0);
    assert_eq!(broken_at(&first_gone), (1, BreakKind::Headless));
}

#[test]
fn two_swapped_lines_are_reported_at_the_first_of_them() {
    let mut lines = log(&[], 5);
    lines.swap(1, 2);
    assert_eq!(broken_at(&lines), (2, BreakKind::NotFollowing));
}

#[test]
fn lines_written_before_the_chain_are_its_verified_starting_point() {
    let legacy = [r#"{"deploy_id":"old1"}"#, r#"{"deploy_id":"old2"}"#];
    let lines = log(&legacy, 3);
    let summary = verify(&lines).unwrap();
    assert_eq!(
        (summary.lines, summary.before_chain, summary.chained),
        (5, 2, 3)
    );
    let mut changed = lines.clone();
    changed[0] = r#"{"deploy_id":"old9"}"#.to_owned();
    assert_eq!(broken_at(&changed), (3, BreakKind::StartMismatch));
    let mut removed = lines;
    removed.remove(1);
    assert_eq!(broken_at(&removed), (2, BreakKind::StartMismatch));
}

#[test]
fn a_torn_line_named_by_the_next_is_accepted_and_one_not_named_is_not() {
    let mut lines = log(&[], 2);
    lines.push(r#"{"deploy_id":"cut in the mid"#.to_owned());
    lines.push(append(&lines, &record(9)));
    let summary = verify(&lines).unwrap();
    assert_eq!((summary.lines, summary.chained), (4, 3));
    let mut inserted = log(&[], 3);
    inserted.insert(1, "garbage".to_owned());
    assert_eq!(broken_at(&inserted), (2, BreakKind::Unreadable));
}

#[test]
fn an_unchained_line_after_the_start_is_reported() {
    let mut lines = log(&[], 3);
    lines.insert(
        2,
        r#"{"deploy_id":"added","timestamp":"2026-12-01T00:00:00Z"}"#.to_owned(),
    );
    assert_eq!(broken_at(&lines), (3, BreakKind::Unchained));
}

#[test]
fn an_anchor_from_an_earlier_check_finds_lines_removed_from_the_end() {
    let lines = log(&[], 5);
    let head = verify(&lines).unwrap().head.unwrap();
    let again = verify_lines(lines.iter().map(String::as_bytes), Some(head.clone()));
    assert!(again.is_ok());
    let cut = &lines[..3];
    let broken = verify_lines(cut.iter().map(String::as_bytes), Some(head.clone())).unwrap_err();
    assert_eq!(
        (broken.line, broken.kind),
        (3, BreakKind::Truncated { anchor: 5 })
    );
    let parsed: Anchor = head.to_string().parse().unwrap();
    assert_eq!(parsed, head);
    assert!("5:nothex".parse::<Anchor>().is_err());
    assert!("0:".parse::<Anchor>().is_err());
}
