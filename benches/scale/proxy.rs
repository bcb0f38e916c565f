//! A TCP proxy on 127.0.0.1:0 in front of Pulp that holds every HTTP request for a fixed
//! latency (a Pulp in another data centre) and counts the requests it forwards.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

pub struct LatencyProxy {
    pub url: String,
    latency: Duration,
    requests: Arc<AtomicUsize>,
}

impl LatencyProxy {
    /// Forwards to `upstream` (`http://host:port`), adding `latency` to each request.
    pub async fn start(upstream: &str, latency: Duration) -> Self {
        let target = upstream
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_owned();
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("a free port");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let requests = Arc::new(AtomicUsize::new(0));
        let counter = requests.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let target = target.clone();
                let counter = counter.clone();
                tokio::spawn(async move {
                    if let Ok(server) = TcpStream::connect(&target).await {
                        pump(client, server, latency, counter).await;
                    }
                });
            }
        });
        Self {
            url,
            latency,
            requests,
        }
    }

    /// The latency added to each request.
    pub fn latency(&self) -> Duration {
        self.latency
    }

    /// Requests forwarded so far.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// Client to server, holding each chunk that starts a request for `latency`; server to
/// client as it comes.
async fn pump(client: TcpStream, server: TcpStream, latency: Duration, count: Arc<AtomicUsize>) {
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let upstream = async move {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match client_read.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            let starts = request_lines(&buf[..n]);
            if starts > 0 {
                count.fetch_add(starts, Ordering::SeqCst);
                tokio::time::sleep(latency).await;
            }
            if server_write.write_all(&buf[..n]).await.is_err() {
                break;
            }
        }
        let _ = server_write.shutdown().await;
    };
    let downstream = async move {
        let _ = tokio::io::copy(&mut server_read, &mut client_write).await;
        let _ = client_write.shutdown().await;
    };
    tokio::join!(upstream, downstream);
}

/// How many HTTP/1.1 request lines start in this chunk.
fn request_lines(chunk: &[u8]) -> usize {
    let text = String::from_utf8_lossy(chunk);
    text.split("\r\n")
        .filter(|line| {
            ["GET ", "POST ", "PATCH ", "PUT ", "DELETE "]
                .iter()
                .any(|m| line.starts_with(m))
                && line.ends_with(" HTTP/1.1")
        })
        .count()
}
