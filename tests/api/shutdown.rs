//! The real binary: starts on the demo, and on SIGTERM lets a deploy in flight finish.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::helpers::*;

/// Starts the real binary on a free port with `config` (TOML); `files`: its limit of open
/// files. Returns it (ended if the test fails) and its address.
fn start_console(dir: &std::path::Path, config: &str, files: Option<u32>) -> (KillOnDrop, String) {
    let config_path = dir.join("console.toml");
    std::fs::write(&config_path, config).unwrap();
    let binary = env!("CARGO_BIN_EXE_repo-console");
    let mut command = match files {
        // `exec` keeps the PID: SIGTERM reaches the console itself.
        Some(files) => {
            let mut sh = Command::new("sh");
            sh.args([
                "-c",
                &format!("ulimit -n {files} && exec \"$0\" \"$@\""),
                binary,
            ]);
            sh
        }
        None => Command::new(binary),
    };
    let mut child = command
        .args(["--listen", "127.0.0.1:0", "--config"])
        .arg(&config_path)
        .arg("--audit-path")
        .arg(dir.join("audit.jsonl"))
        .env_remove("REPO_CONSOLE_PULP_URL")
        .env("HOME", dir) // no pulp-cli config to pick up
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let child = KillOnDrop(Some(child));
    let address = loop {
        let line = lines.next().expect("the console logs its address").unwrap();
        if let Some(rest) = line.split("listening on ").nth(1) {
            break rest.trim().trim_end_matches('/').to_owned();
        }
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, address)
}

fn sigterm(child: &KillOnDrop) {
    let pid = child.0.as_ref().unwrap().id().to_string();
    assert!(Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap()
        .success());
}

#[tokio::test]
async fn sigterm_lets_a_deploy_in_flight_finish_then_exits() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, address) = start_console(
        dir.path(),
        // epel9-appstream's metadata is unsigned and unchecked: deployable where allowed.
        "[demo]\ntask_delay_ms = 1500\n[verification]\nunsigned_metadata = \"allow\"\n",
        None,
    );
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
    sigterm(&child);
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

#[tokio::test]
async fn sigterm_does_not_wait_for_a_half_sent_request() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, address) = start_console(dir.path(), "", None);
    let host = address.trim_start_matches("http://");
    let mut idle = TcpStream::connect(host).await.unwrap();
    let mut half = TcpStream::connect(host).await.unwrap();
    let head = format!(
        "POST /repos/0190b6a2-0000-7000-8000-000000000001/deploy HTTP/1.1\r\nHost: {host}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\nversion=",
    );
    half.write_all(head.as_bytes()).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    sigterm(&child);
    let mut process = child.0.take().unwrap();
    let exited = tokio::task::spawn_blocking(move || process.wait());
    let status = tokio::time::timeout(Duration::from_secs(10), exited)
        .await
        .expect("the console exits without waiting for the half-sent body")
        .unwrap()
        .unwrap();
    assert!(status.success(), "clean exit: {status}");
    let mut answer = String::new();
    let _ = half.read_to_string(&mut answer).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    let mut nothing = Vec::new();
    let _ = idle.read_to_end(&mut nothing).await;
}

#[tokio::test]
async fn idle_connections_beyond_the_file_limit_do_not_lock_out_healthz() {
    let dir = tempfile::tempdir().unwrap();
    let config = "[server]\nheader_timeout_secs = 1\nidle_timeout_secs = 2\n";
    let (_child, address) = start_console(dir.path(), config, Some(256));
    let host = address.trim_start_matches("http://").to_owned();
    let mut idle = Vec::new();
    for _ in 0..300 {
        idle.push(TcpStream::connect(&host).await.unwrap());
    }
    let app = WebClient { address };
    let health = tokio::time::timeout(Duration::from_secs(20), app.get("/healthz"))
        .await
        .expect("/healthz answers once the idle connections are closed");
    assert_eq!(health.status, 200);
    let mut closed = 0;
    for mut stream in idle {
        let mut buf = [0u8; 16];
        if let Ok(Ok(0)) =
            tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf)).await
        {
            closed += 1;
        }
    }
    assert_eq!(
        closed, 300,
        "every idle connection was closed by the console"
    );
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
