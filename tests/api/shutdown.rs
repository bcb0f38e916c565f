//! The real binary: starts on the demo, and on SIGTERM lets a deploy in flight finish.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::helpers::*;

#[tokio::test]
async fn sigterm_lets_a_deploy_in_flight_finish_then_exits() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("console.toml");
    std::fs::write(&config, "[demo]\ntask_delay_ms = 1500\n").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(["--listen", "127.0.0.1:0", "--config"])
        .arg(&config)
        .arg("--audit-path")
        .arg(dir.path().join("audit.jsonl"))
        .env_remove("REPO_CONSOLE_PULP_URL")
        .env("HOME", dir.path()) // no pulp-cli config to pick up
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut child = KillOnDrop(Some(child));
    let address = loop {
        let line = lines.next().expect("the console logs its address").unwrap();
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.trim().trim_end_matches('/').to_owned();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    let app = WebClient { address };
    let dashboard = app.get("/").await;
    let id = dashboard
        .body
        .split("/repos/")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .to_owned();
    let name = "epel9-appstream";
    assert!(
        dashboard
            .body
            .contains(&format!("/repos/{id}/versions\"><bdi>{name}</bdi>")),
        "the first repository is {name}"
    );
    let deploy = tokio::spawn(async move {
        let body = format!("version=8&confirm={name}");
        app.post(&format!("/repos/{id}/deploy"), &body).await
    });
    tokio::time::sleep(Duration::from_millis(500)).await; // the publish task is running
    let pid = child.0.as_ref().unwrap().id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
    let reply = deploy.await.unwrap();
    assert_eq!(
        reply.status, 303,
        "the deploy finished although shutdown began: {}",
        reply.body
    );
    let status = child.0.take().unwrap().wait().unwrap();
    assert!(status.success(), "clean exit: {status}");
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert!(audit
        .lines()
        .last()
        .unwrap()
        .contains("\"outcome\":\"deployed\""));
}

/// Ends the console if the test fails before it does (a panicking test must not leave it running).
struct KillOnDrop(Option<std::process::Child>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(child) = self.0.as_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn a_bad_setting_stops_the_console_at_startup_with_a_message_naming_it() {
    for (args, env, says) in [
        (vec!["--listen", "nowhere"], None, "server.listen"),
        (
            vec!["--listen", "127.0.0.1:0"],
            Some(("REPO_CONSOLE_PULP_URL", "ftp://pulp")),
            "must start with http:// or https://",
        ),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_repo-console"));
        command
            .args(&args)
            .env("HOME", "/nonexistent")
            .stdin(Stdio::null());
        if let Some((key, value)) = env {
            command.env(key, value);
        }
        let output = command.output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
