//! Finding Chromium and ChromeDriver, and running ChromeDriver for the length of the suite.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The browser and its driver, as found on this machine.
pub struct Tools {
    pub chromium: PathBuf,
    pub chromedriver: PathBuf,
}

impl Tools {
    /// Finds both tools (`CHROME_BIN` / `CHROMEDRIVER` override the search of `PATH`);
    /// fails the test when one is missing (its `#[ignore = "needs Chromium"]` keeps it from
    /// running unasked).
    pub fn required() -> Tools {
        let chromium = from_env_or_path(
            "CHROME_BIN",
            &["chromium", "chromium-browser", "google-chrome"],
        );
        let chromedriver = from_env_or_path("CHROMEDRIVER", &["chromedriver"]);
        match (chromium, chromedriver) {
            (Some(chromium), Some(chromedriver)) => Tools {
                chromium,
                chromedriver,
            },
            (chromium, chromedriver) => {
                let missing: Vec<&str> = [
                    ("chromium", chromium.is_none()),
                    ("chromedriver", chromedriver.is_none()),
                ]
                .iter()
                .filter(|(_, gone)| *gone)
                .map(|(name, _)| *name)
                .collect();
                let why = format!(
                    "{} not found (Debian: apt-get install chromium chromium-driver, or set \
                     CHROME_BIN / CHROMEDRIVER)",
                    missing.join(" and ")
                );
                crate::needs::missing("Chromium", &why)
            }
        }
    }
}

fn from_env_or_path(var: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(var).map(PathBuf::from) {
        return path.is_file().then_some(path);
    }
    let dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    names
        .iter()
        .flat_map(|name| dirs.iter().map(move |dir| dir.join(name)))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A ChromeDriver on a free 127.0.0.1 port, in its own process group: dropping the guard
/// (also while a failed assertion unwinds) ends that group, browsers included, by its id.
pub struct ChromeDriver {
    child: Child,
    pub url: String,
}

impl ChromeDriver {
    pub async fn start(tools: &Tools, log_path: &Path) -> ChromeDriver {
        use std::os::unix::process::CommandExt;
        let port = free_port();
        let log =
            std::fs::File::create(log_path).expect("create the chromedriver log under target/");
        let child = Command::new(&tools.chromedriver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .arg(format!("--log-path={}", log_path.display()))
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log handle"))
            .stderr(log)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", tools.chromedriver.display()));
        let driver = ChromeDriver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        driver.wait_ready(port).await;
        driver
    }

    async fn wait_ready(&self, port: u16) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("chromedriver did not listen on port {port} within 20 s");
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let signal = |name: &str| {
            let _ = Command::new("kill")
                .args([name, "--", &group])
                .stderr(Stdio::null())
                .status();
        };
        signal("-TERM");
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(20));
        }
        // Whatever of the group is left (a browser that did not quit) ends now.
        signal("-KILL");
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free port");
    listener.local_addr().expect("local address").port()
}
