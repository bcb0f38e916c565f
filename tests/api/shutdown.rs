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

/// What the real binary is started with: flags, environment, a `--config` file, and
/// pulp-cli's file in its HOME.
#[derive(Default)]
struct Start<'a> {
    args: &'a [&'a str],
    env: &'a [(&'a str, &'a str)],
    config: Option<&'a str>,
    pulp_cli: Option<&'a str>,
}

/// Runs the real binary; expects it to stop at startup, and answers what it said.
fn startup_error(start: Start) -> String {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_repo-console"));
    command
        .args(start.args)
        .env("HOME", home.path())
        .env_remove("REPO_CONSOLE_PULP_URL")
        .env_remove("REPO_CONSOLE_CONFIG")
        .envs(start.env.iter().copied())
        .stdin(Stdio::null());
    if let Some(text) = start.config {
        let path = home.path().join("console.toml");
        std::fs::write(&path, text).unwrap();
        command.arg("--config").arg(path);
    }
    if let Some(text) = start.pulp_cli {
        let dir = home.path().join(".config/pulp");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("cli.toml"), text).unwrap();
    }
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    stderr
}

const LISTEN: &[&str] = &["--listen", "127.0.0.1:0"];

#[test]
fn a_bad_setting_stops_the_console_at_startup_with_a_message_naming_it() {
    let cases = [
        (
            Start {
                args: &["--listen", "nowhere"],
                ..Start::default()
            },
            "server.listen",
        ),
        (
            Start {
                args: LISTEN,
                env: &[("REPO_CONSOLE_PULP_URL", "ftp://pulp")],
                ..Start::default()
            },
            "pulp.base_url",
        ),
        (
            Start {
                args: LISTEN,
                config: Some("[pulp]\nrequest_timeout_secs = 0"),
                ..Start::default()
            },
            "pulp.request_timeout_secs",
        ),
        (
            Start {
                args: LISTEN,
                pulp_cli: Some("[cli]\nbase_url = \"http://127.0.0.1:9\"\napi_root = \"pulp\""),
                ..Start::default()
            },
            "pulp.api_root",
        ),
    ];
    for (start, says) in cases {
        let stderr = startup_error(start);
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
}

#[test]
fn flags_win_over_the_environment_which_wins_over_the_config_file() {
    let flag_wins = startup_error(Start {
        args: &["--listen", "127.0.0.1:0", "--pulp-url", "ftp://from-flag"],
        env: &[("REPO_CONSOLE_PULP_URL", "http://from-env:24817")],
        ..Start::default()
    });
    assert!(flag_wins.contains("ftp://from-flag"), "{flag_wins}");
    let env_wins = startup_error(Start {
        args: LISTEN,
        env: &[("REPO_CONSOLE_PULP_URL", "ftp://from-env")],
        config: Some("[pulp]\nbase_url = \"http://from-file:24817\""),
        ..Start::default()
    });
    assert!(env_wins.contains("ftp://from-env"), "{env_wins}");
}
