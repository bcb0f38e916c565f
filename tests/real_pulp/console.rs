//! The console itself over `PulpClient` and the real Pulp: [`over_upstream`] (the common
//! harness's builder), HTML helpers, the counting `RepositoryManager` decorator
//! (`tests/common/counting.rs`) and a counting TCP proxy (to count the HTTP requests that
//! reach Pulp).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::ports::{ContentCatalog, RepositoryManager};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub use crate::counting::Counting;
use crate::test_app::{TestApp, TestAppBuilder};
pub use crate::web::{attr, change_kinds, enc, package_changes, select, select_in, text, Reply};

/// The console served on 127.0.0.1:0 through the whole edge, with a JSON Lines audit file
/// in a temporary directory.
pub type Console = TestApp<()>;

/// The harness's builder over `pulp` (the real one, or a decorator of it), `page_size`
/// repositories a dashboard page, on the system clock; production distributions are found
/// by the spec's rule (no `[production]` table) unless a test configures them.
pub fn over_upstream<P: RepositoryManager + ContentCatalog + 'static>(
    pulp: Arc<P>,
    page_size: u64,
) -> TestAppBuilder<()> {
    TestApp::builder()
        .upstream(pulp)
        .page_size(page_size)
        .clock(Arc::new(SystemClock))
}

/// The median of some durations, in milliseconds.
pub fn median_ms(mut runs: Vec<Duration>) -> f64 {
    runs.sort();
    let mid = runs.len() / 2;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    if runs.len().is_multiple_of(2) {
        (ms(runs[mid - 1]) + ms(runs[mid])) / 2.0
    } else {
        ms(runs[mid])
    }
}

/// A TCP proxy on 127.0.0.1:0 in front of Pulp that keeps the request line of every HTTP
/// request sent through it (scanned in the client's bytes, so kept-alive connections count).
pub struct CountingProxy {
    pub url: String,
    requests: Arc<Mutex<Vec<String>>>,
}

const METHODS: [&str; 5] = ["GET /", "POST /", "PATCH /", "PUT /", "DELETE /"];

impl CountingProxy {
    pub async fn start(upstream_url: &str) -> Self {
        let upstream = upstream_url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let (seen, upstream) = (seen.clone(), upstream.clone());
                tokio::spawn(async move {
                    let Ok(server) = TcpStream::connect(&upstream).await else {
                        return;
                    };
                    let (mut client_read, mut client_write) = client.into_split();
                    let (mut server_read, mut server_write) = server.into_split();
                    let up = async move {
                        let mut buf = vec![0u8; 16 * 1024];
                        loop {
                            let n = client_read.read(&mut buf).await.unwrap_or(0);
                            if n == 0 {
                                let _ = server_write.shutdown().await;
                                break;
                            }
                            let chunk = String::from_utf8_lossy(&buf[..n]);
                            let lines = chunk
                                .lines()
                                .filter(|l| METHODS.iter().any(|m| l.starts_with(m)))
                                .map(|l| l.trim_end_matches(" HTTP/1.1").to_owned());
                            seen.lock().unwrap_or_else(|p| p.into_inner()).extend(lines);
                            if server_write.write_all(&buf[..n]).await.is_err() {
                                break;
                            }
                        }
                    };
                    let down = tokio::io::copy(&mut server_read, &mut client_write);
                    let _ = tokio::join!(up, down);
                });
            }
        });
        Self { url, requests }
    }

    /// The request lines seen since the last `take`.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.requests.lock().unwrap_or_else(|p| p.into_inner()))
    }
}
