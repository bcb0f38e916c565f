//! The JSON Lines audit file: whole lines, even from several processes at once.

use std::process::Command;

use chrono::Utc;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::domain::deploy::{AuditOutcome, DeployId, DeployKind, DeployRecord};
use repo_console::domain::repository::{PublicationHref, RepoId};
use repo_console::ports::AuditSink;

const CHILD_ENV: &str = "RC_TEST_AUDIT_CHILD_FILE";

fn record(i: usize, writer: &str) -> DeployRecord {
    DeployRecord {
        deploy_id: DeployId::new(format!("{writer}-{i}")),
        timestamp: Utc::now(),
        operator: "operator".into(),
        repository_uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
        repository_name: format!(
            "repo with a long name to make lines longer {}",
            "x".repeat(300)
        ),
        previous_version: Some(i as u64),
        target_version: i as u64 + 1,
        environment: repo_console::domain::environment::EnvironmentName::production(),
        distribution: "prod".into(),
        publication: Some(PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/x/")),
        kind: DeployKind::Deploy,
        reason: None,
        request: None,
        freeze_override: None,
        release: None,
        soak_override: None,
        schedule: None,
        checks_override: None,
        automation: None,
        outcome: AuditOutcome::Deployed,
    }
}

/// What each child process of the test below does: a thousand lines into `path`.
async fn write_a_thousand_lines(path: &str) {
    let writer = std::process::id().to_string();
    let sink = JsonlAuditSink::new(path);
    for i in 0..1000 {
        sink.record(&record(i, &writer)).await.expect("append");
    }
}

#[tokio::test]
async fn two_processes_appending_a_thousand_lines_each_leave_two_thousand_whole_lines() {
    // Run again by itself as each of the two writers (the test binary, this test only).
    if let Ok(path) = std::env::var(CHILD_ENV) {
        return write_a_thousand_lines(&path).await;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/dir/audit.jsonl");
    let exe = std::env::current_exe().unwrap();
    let spawn = || {
        Command::new(&exe)
            .args([
                "--exact",
                "audit::two_processes_appending_a_thousand_lines_each_leave_two_thousand_whole_lines",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &path)
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let (mut a, mut b) = (spawn(), spawn());
    assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a whole JSON line"))
        .collect();
    assert_eq!(lines.len(), 2000);
    assert!(text.ends_with('\n'));
    let writers: std::collections::HashSet<String> = lines
        .iter()
        .map(|l| {
            l["deploy_id"]
                .as_str()
                .unwrap()
                .split('-')
                .next()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(writers.len(), 2, "both processes wrote");
    let reports = JsonlAuditSink::new(&path)
        .verify_chain(&Default::default())
        .await
        .unwrap();
    let summary = reports[0].verdict.clone().expect("one chain, never forked");
    assert_eq!(summary.chained, 2000);
}

#[tokio::test]
async fn check_writable_fails_clearly_when_the_path_cannot_be_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("audit.jsonl")).unwrap();
    let sink = JsonlAuditSink::new(dir.path().join("audit.jsonl"));
    let error = sink.check_writable().await.unwrap_err();
    assert!(error.to_string().contains("audit.jsonl"), "{error}");
    assert!(
        sink.record(&record(0, "w")).await.is_err(),
        "a failed write is reported, not swallowed"
    );
}

#[tokio::test]
async fn the_jsonl_sink_reads_back_the_newest_records_of_one_repository() {
    let dir = tempfile::tempdir().unwrap();
    let sink = JsonlAuditSink::new(dir.path().join("audit.jsonl"));
    let repo = RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap();
    let other = RepoId::parse("0199aaaa-0000-7000-8000-000000000001").unwrap();
    assert!(
        sink.recent(&repo, 5).await.unwrap().is_empty(),
        "no file yet"
    );
    for i in 0..300 {
        let mut line = record(i, "w");
        if i % 3 == 0 {
            line.repository_uuid = other.to_string();
        }
        sink.record(&line).await.unwrap();
    }
    let newest = sink.recent(&repo, 4).await.unwrap();
    let ids: Vec<_> = newest.iter().map(|r| r.deploy_id.as_str()).collect();
    assert_eq!(ids, ["w-299", "w-298", "w-296", "w-295"]);
    assert_eq!(newest[0], {
        let mut expected = record(299, "w");
        expected.timestamp = newest[0].timestamp;
        expected
    });
    assert_eq!(sink.recent(&other, 1000).await.unwrap().len(), 100);
}

#[tokio::test]
async fn one_read_for_several_repositories_gives_what_each_read_would() {
    let dir = tempfile::tempdir().unwrap();
    let sink = JsonlAuditSink::new(dir.path().join("audit.jsonl"));
    let busy = RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap();
    let quiet = RepoId::parse("0199aaaa-0000-7000-8000-000000000001").unwrap();
    let absent = RepoId::parse("0199aaaa-0000-7000-8000-000000000002").unwrap();
    for i in 0..300 {
        let mut line = record(i, "w");
        if i % 50 == 0 {
            line.repository_uuid = quiet.to_string();
        }
        sink.record(&line).await.unwrap();
    }
    let repos = [busy.clone(), quiet.clone(), absent.clone()];
    let all = sink.recent_of(&repos, 4).await.unwrap();
    for repo in &repos {
        assert_eq!(all[repo], sink.recent(repo, 4).await.unwrap(), "{repo}");
    }
    assert_eq!(
        all[&quiet].len(),
        4,
        "the busy repository does not crowd it out"
    );
    assert!(all[&absent].is_empty());
}

#[tokio::test]
async fn a_line_is_about_the_repository_its_repository_uuid_names_however_it_is_spaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let sink = JsonlAuditSink::new(&path);
    let repo = RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap();
    let other = RepoId::parse("0199aaaa-0000-7000-8000-000000000001").unwrap();
    // Another repository's line whose reason names `repo`: found by its id, then not kept.
    let mut mentions = record(1, "w");
    mentions.repository_uuid = other.to_string();
    mentions.reason = Some(format!("same as {repo}"));
    sink.record(&mentions).await.unwrap();
    // A line of `repo` written by another tool, with spaces after the colons.
    let spaced = serde_json::to_string_pretty(&record(2, "w"))
        .unwrap()
        .replace('\n', "");
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut file, format!("{spaced}\n").as_bytes()).unwrap();

    let found: Vec<String> = sink
        .recent(&repo, 10)
        .await
        .unwrap()
        .iter()
        .map(|r| r.deploy_id.as_str().to_owned())
        .collect();
    assert_eq!(found, ["w-2"]);
    let of = sink
        .recent_of(&[repo.clone(), other.clone()], 10)
        .await
        .unwrap();
    assert_eq!(of[&repo].len(), 1);
    assert_eq!(of[&other][0].deploy_id.as_str(), "w-1");
}

#[tokio::test]
async fn a_line_torn_by_a_crash_does_not_swallow_the_next_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let sink = JsonlAuditSink::new(&path);
    sink.record(&record(1, "w")).await.unwrap();
    // A write cut short by a crash: half a line, no newline, never acknowledged.
    let whole = serde_json::to_string(&record(2, "w")).unwrap();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut file, &whole.as_bytes()[..whole.len() / 2]).unwrap();
    drop(file);
    sink.record(&record(3, "w")).await.unwrap();
    let repo = RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap();
    let ids: Vec<String> = sink
        .recent(&repo, 10)
        .await
        .unwrap()
        .iter()
        .map(|r| r.deploy_id.as_str().to_owned())
        .collect();
    assert_eq!(
        ids,
        ["w-3", "w-1"],
        "the torn line skipped, the next one whole"
    );
    let lines = sink.lines_of(&DeployId::new("w-3")).await.unwrap();
    assert_eq!(lines.len(), 1);
}
