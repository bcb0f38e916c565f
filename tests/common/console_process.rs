//! The real binary as a child process on 127.0.0.1, its standard error collected, ended by
//! its PID (SIGKILL) when dropped. Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

pub struct ConsoleProcess {
    child: Child,
    /// `http://127.0.0.1:<port>`.
    pub address: String,
    /// Every line written on standard error so far.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl ConsoleProcess {
    /// Starts `repo-console` with `args` and `env` on a free port; returns once it listens.
    /// Panics with its log when it exits first.
    pub fn start(args: &[&str], env: &[(&str, &str)], home: &std::path::Path) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_repo-console"));
        command
            .args(["--listen", "127.0.0.1:0"])
            .args(args)
            .env("HOME", home) // no pulp-cli config to pick up
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for var in [
            "REPO_CONSOLE_PULP_URL",
            "REPO_CONSOLE_AUDIT_SINK",
            "REPO_CONSOLE_AUDIT_URL",
        ] {
            command.env_remove(var);
        }
        command.envs(env.iter().copied());
        let mut child = command.spawn().expect("the binary starts");
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let log = Arc::new(Mutex::new(Vec::new()));
        let address = loop {
            let Some(Ok(line)) = lines.next() else {
                let _ = child.wait();
                panic!(
                    "the console exited before listening:\n{}",
                    log.lock().unwrap().join("\n")
                );
            };
            log.lock().unwrap().push(line.clone());
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let port_end = rest.find('/').unwrap_or(rest.len());
                break format!("http://{}", &rest[..port_end]);
            }
        };
        let collected = log.clone();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                collected.lock().unwrap().push(line);
            }
        });
        Self {
            child,
            address,
            log,
        }
    }

    /// The log lines so far.
    pub fn log_lines(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }

    /// SIGKILL, by PID: no shutdown, no cleanup.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ConsoleProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
