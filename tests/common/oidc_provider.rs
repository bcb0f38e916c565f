//! A real OpenID Connect provider for the sign-in tests: `oidc-provider-mock` (PyPI, the
//! version pinned in `tests/common/oidc-provider-mock.version`, installed by
//! `scripts/test.sh` into a cached virtualenv and named by `RC_TEST_OIDC_PROVIDER_MOCK`),
//! started once per test on a free 127.0.0.1 port and stopped when the test drops it (its
//! own process only, by id).
//!
//! What was seen of it by running it (version 0.3.4), and what the tests build on:
//! - its issuer is `http://127.0.0.1:<port>` (no trailing slash), its discovery document at
//!   `/.well-known/openid-configuration` names an `end_session_endpoint` (RP-initiated
//!   logout) and RS256 keys at `/jwks`;
//! - any `client_id` is accepted with any secret (no registration), and the ID token's `aud`
//!   is that client id; a code is redeemed once (a second time: `invalid_grant`);
//! - `PUT /users/<sub>` with a JSON object sets the user's claims (`preferred_username` is
//!   given only with the `profile` scope; a claim it does not know, such as `groups`,
//!   always);
//! - the sign-in form posts `sub=<subject>` to the authorization URL, which then redirects
//!   to the client's `redirect_uri` with `code` and `state`;
//! - the `nonce` is copied into the ID token (`--require-nonce true` refuses a request
//!   without one); `--token-max-age <seconds>` sets the tokens' lifetime: negative gives an
//!   ID token already expired, with a negative `expires_in` that no OAuth client reads (0
//!   makes its token endpoint fail), so the `exp` check itself is met by a provider of the
//!   tests' own (tests/api/oidc_hostile.rs);
//! - it accepts `code_challenge` but does not check the `code_verifier` (PKCE is not
//!   enforced by it: the console sends both all the same).
//!
//! Included with `#[path]`.

#![allow(dead_code)] // each binary uses its own part

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running provider, stopped on drop.
pub struct MockProvider {
    child: Child,
    port: u16,
}

impl MockProvider {
    /// A provider with ID tokens valid for an hour, nonces required.
    pub async fn start() -> Self {
        Self::start_with(&["--require-nonce", "true"]).await
    }

    /// A provider whose tokens expired ten minutes before they were issued (its
    /// `expires_in` is then negative too).
    pub async fn issuing_expired_tokens() -> Self {
        Self::start_with(&["--require-nonce", "true", "--token-max-age", "-600"]).await
    }

    async fn start_with(arguments: &[&str]) -> Self {
        let program = program();
        let port = free_port();
        let child = Command::new(&program)
            .args(["--host", "127.0.0.1", "--port", &port.to_string()])
            .args(arguments)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let provider = Self { child, port };
        provider.wait_until_ready().await;
        provider
    }

    /// The issuer, as the console's `oidc.issuer` names it.
    pub fn issuer(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Sets the claims of user `sub` (the provider's `PUT /users/<sub>`).
    pub async fn set_user(&self, sub: &str, claims: serde_json::Value) {
        let url = format!("{}/users/{sub}", self.issuer());
        let (status, body) = http("PUT", &url, Some(claims.to_string()), "application/json").await;
        assert_eq!(status, 204, "PUT /users/{sub}: {body}");
    }

    /// Signs `sub` in at the authorization URL `authorize_url` (as its form does) and
    /// answers where the provider sends the browser back (the client's redirect with
    /// `code` and `state`).
    pub async fn sign_in_at(&self, authorize_url: &str, sub: &str) -> String {
        let form = format!("sub={sub}");
        let answer = raw_request(
            "POST",
            authorize_url,
            Some(form),
            "application/x-www-form-urlencoded",
        )
        .await;
        location_of(&answer)
            .unwrap_or_else(|| panic!("the provider did not redirect back: {answer}"))
    }

    async fn wait_until_ready(&self) {
        let url = format!("{}/.well-known/openid-configuration", self.issuer());
        for _ in 0..300 {
            if let Ok((200, _)) = try_http("GET", &url, None, "").await {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("oidc-provider-mock did not answer on {url} within 15 s");
    }
}

impl Drop for MockProvider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `oidc-provider-mock` program; fails the test where there is none.
fn program() -> String {
    std::env::var("RC_TEST_OIDC_PROVIDER_MOCK")
        .ok()
        .or_else(|| {
            let home = std::env::var("HOME").ok()?;
            let version = include_str!("oidc-provider-mock.version").trim();
            let cache = std::env::var("RC_TEST_CACHE")
                .unwrap_or_else(|_| format!("{home}/.cache/repo-console"));
            Some(format!(
                "{cache}/oidc-provider-mock-{version}/bin/oidc-provider-mock"
            ))
        })
        .filter(|p| std::path::Path::new(p).exists())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "oidc-provider-mock",
                "no RC_TEST_OIDC_PROVIDER_MOCK naming its program, and none in the cache \
                 (scripts/test.sh installs it from PyPI into a cached virtualenv)",
            )
        })
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

/// The `Location` header of a raw HTTP answer.
pub fn location_of(answer: &str) -> Option<String> {
    answer.split("\r\n\r\n").next()?.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location")
            .then(|| value.trim().to_owned())
    })
}

/// A request to the provider; its status and body.
async fn http(method: &str, url: &str, body: Option<String>, kind: &str) -> (u16, String) {
    try_http(method, url, body, kind)
        .await
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"))
}

async fn try_http(
    method: &str,
    url: &str,
    body: Option<String>,
    kind: &str,
) -> std::io::Result<(u16, String)> {
    let answer = try_raw_request(method, url, body, kind).await?;
    let status = answer
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    Ok((status, body))
}

async fn raw_request(method: &str, url: &str, body: Option<String>, kind: &str) -> String {
    try_raw_request(method, url, body, kind)
        .await
        .unwrap_or_else(|e| panic!("{method} {url}: {e}"))
}

/// One HTTP/1.1 request over a plain socket to `http://127.0.0.1:<port>/...`, answered whole
/// (`Connection: close`).
async fn try_raw_request(
    method: &str,
    url: &str,
    body: Option<String>,
    kind: &str,
) -> std::io::Result<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").expect("an http:// URL");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut stream = tokio::net::TcpStream::connect(authority).await?;
    let body = body.unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Content-Type: {kind}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await?;
    Ok(String::from_utf8_lossy(&answer).into_owned())
}
