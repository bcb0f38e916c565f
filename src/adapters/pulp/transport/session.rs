//! Authentication that stays fast. Basic auth costs ~0.5 s per request on Pulp (the
//! password is hashed on every call), so the session logs in once
//! (`POST {api_root}api/v3/login/` with basic auth, answered with `sessionid` and
//! `csrftoken` cookies), reuses the cookies, renews them once when they are refused,
//! and falls back to basic auth on servers without a login endpoint.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use base64::Engine;
use hyper::body::Bytes;
use hyper::header::{HeaderName, HeaderValue, AUTHORIZATION, COOKIE, REFERER};
use hyper::{Method, StatusCode};
use tokio::sync::Mutex;

use crate::adapters::pulp::transport::errors::{body_message, status_error, transport_error};
use crate::adapters::pulp::transport::http::{HttpTransport, RawResponse};
use crate::adapters::pulp::transport::settings::PulpSettings;
use crate::ports::UpstreamError;

/// The credentials requests are currently sent with.
#[derive(Clone)]
enum Credentials {
    /// Not logged in yet (or the session was dropped).
    Unknown,
    Session {
        cookies: SessionCookies,
        generation: u64,
    },
    /// The server has no login endpoint: basic auth on every request.
    Basic,
    /// No username configured: nothing is sent.
    Anonymous,
}

#[derive(Clone)]
struct SessionCookies {
    sessionid: String,
    csrftoken: String,
}

pub(crate) struct Session {
    transport: HttpTransport,
    base: String,
    login_url: String,
    secure: bool,
    basic: Option<HeaderValue>,
    /// Held during a login, so that concurrent requests wait for one login.
    state: Mutex<Credentials>,
    /// The last failed login: requests that waited for it share its error instead of
    /// each trying again (a down Pulp would otherwise cost one timeout per request).
    recent_failure: std::sync::Mutex<Option<(Instant, UpstreamError)>>,
    logins: AtomicU64,
}

/// How long a failed login answers for the requests that waited on it.
const FAILURE_SHARED_FOR: Duration = Duration::from_secs(1);

impl Session {
    pub fn new(transport: HttpTransport, settings: &PulpSettings) -> Self {
        let basic = (!settings.username.is_empty()).then(|| {
            let raw = format!("{}:{}", settings.username, settings.password.expose());
            let mut value = HeaderValue::from_str(&format!("Basic {}", base64(raw.as_bytes())))
                .unwrap_or_else(|_| HeaderValue::from_static("Basic"));
            value.set_sensitive(true);
            value
        });
        let initial = match (&basic, settings.use_session) {
            (None, _) => Credentials::Anonymous,
            (Some(_), true) => Credentials::Unknown,
            (Some(_), false) => Credentials::Basic,
        };
        Self {
            transport,
            base: settings.base().to_owned(),
            login_url: format!("{}{}login/", settings.base(), settings.api_path()),
            secure: settings.base().starts_with("https://"),
            basic,
            state: Mutex::new(initial),
            recent_failure: std::sync::Mutex::new(None),
            logins: AtomicU64::new(0),
        }
    }

    /// How many times a session was opened (logins are the expensive calls).
    pub fn login_count(&self) -> u64 {
        self.logins.load(Ordering::Relaxed)
    }

    /// Sends an authenticated request; answers whatever status came back, after renewing
    /// the session once if upstream refused it.
    pub async fn request(
        &self,
        method: Method,
        url: &str,
        body: Option<Bytes>,
    ) -> Result<RawResponse, UpstreamError> {
        let credentials = self.credentials(None).await?;
        let response = self
            .send_with(&credentials, &method, url, body.clone())
            .await?;
        let Credentials::Session { generation, .. } = credentials else {
            return Ok(response);
        };
        let interrupted = session_interrupted(&response);
        if interrupted && !method.is_safe() {
            // Django raises this after the view ran: the change may have been made.
            return Err(UpstreamError::Interrupted(
                "Pulp's session was deleted while Pulp handled the request (Django's \
                 SessionInterrupted)"
                    .to_owned(),
            )
            .logged());
        }
        if !session_refused(&response) && !interrupted {
            return Ok(response);
        }
        tracing::info!(
            status = response.status.as_u16(),
            "Pulp refused the session; logging in again"
        );
        let renewed = self.credentials(Some(generation)).await?;
        self.send_with(&renewed, &method, url, body).await
    }

    /// The current credentials, logging in first when there are none or when
    /// `stale` names the session generation that was just refused.
    async fn credentials(&self, stale: Option<u64>) -> Result<Credentials, UpstreamError> {
        let mut state = self.state.lock().await;
        let must_login = match &*state {
            Credentials::Unknown => true,
            Credentials::Session { generation, .. } => Some(*generation) == stale,
            Credentials::Basic | Credentials::Anonymous => false,
        };
        if must_login {
            if let Some(error) = self.shared_failure() {
                return Err(error);
            }
            *state = Credentials::Unknown;
            match self.login().await {
                Ok(credentials) => *state = credentials,
                Err(error) => {
                    *self
                        .recent_failure
                        .lock()
                        .unwrap_or_else(|p| p.into_inner()) = Some((Instant::now(), error.clone()));
                    return Err(error);
                }
            }
        }
        Ok(state.clone())
    }

    /// The error of a login that failed a moment ago, if any.
    fn shared_failure(&self) -> Option<UpstreamError> {
        let recent = self
            .recent_failure
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        recent
            .as_ref()
            .filter(|(at, _)| at.elapsed() < FAILURE_SHARED_FOR)
            // Logged again under this request's correlation id.
            .map(|(_, error)| error.clone().logged())
    }

    /// Logs in; once more when the new session was deleted before Pulp answered (sessions
    /// cleared by an administrator while the login ran: Django's `SessionInterrupted`).
    #[tracing::instrument(name = "pulp_login", skip_all, fields(url = %self.login_url))]
    async fn login(&self) -> Result<Credentials, UpstreamError> {
        let first = self.send_login().await?;
        let response = if session_interrupted(&first) {
            tracing::info!("Pulp deleted the new session during the login; logging in again");
            self.send_login().await?
        } else {
            first
        };
        match response.status {
            StatusCode::OK | StatusCode::CREATED => {
                let cookies = session_cookies(&response.set_cookies);
                let Some(cookies) = cookies else {
                    tracing::warn!("Pulp's login answer set no session cookie; using basic auth");
                    return Ok(Credentials::Basic);
                };
                let generation = self.logins.fetch_add(1, Ordering::Relaxed) + 1;
                tracing::debug!(generation, "logged in to Pulp");
                Ok(Credentials::Session {
                    cookies,
                    generation,
                })
            }
            StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED => {
                tracing::info!("Pulp has no login endpoint; using basic auth on every request");
                Ok(Credentials::Basic)
            }
            status => Err(status_error(status.as_u16(), &response.body)),
        }
    }

    async fn send_login(&self) -> Result<RawResponse, UpstreamError> {
        let headers = self
            .basic
            .iter()
            .map(|v| (AUTHORIZATION, v.clone()))
            .collect();
        self.transport
            .send(Method::POST, &self.login_url, headers, None)
            .await
            .map_err(transport_error)
    }

    async fn send_with(
        &self,
        credentials: &Credentials,
        method: &Method,
        url: &str,
        body: Option<Bytes>,
    ) -> Result<RawResponse, UpstreamError> {
        let mut headers = Vec::new();
        match credentials {
            Credentials::Session { cookies, .. } => {
                let cookie = format!(
                    "sessionid={}; csrftoken={}",
                    cookies.sessionid, cookies.csrftoken
                );
                if let Ok(mut value) = HeaderValue::from_str(&cookie) {
                    value.set_sensitive(true);
                    headers.push((COOKIE, value));
                }
                if !method.is_safe() {
                    if let Ok(token) = HeaderValue::from_str(&cookies.csrftoken) {
                        headers.push((HeaderName::from_static("x-csrftoken"), token));
                    }
                    // Django checks the Referer of unsafe HTTPS requests against the host.
                    if self.secure {
                        if let Ok(referer) = HeaderValue::from_str(&format!("{}/", self.base)) {
                            headers.push((REFERER, referer));
                        }
                    }
                }
            }
            Credentials::Basic | Credentials::Unknown => {
                headers.extend(self.basic.iter().map(|v| (AUTHORIZATION, v.clone())));
            }
            Credentials::Anonymous => {}
        }
        self.transport
            .send(method.clone(), url, headers, body)
            .await
            .map_err(transport_error)
    }
}

/// Upstream no longer accepts the session: 401, or 403 about CSRF or missing credentials
/// (not a plain permission refusal).
fn session_refused(response: &RawResponse) -> bool {
    match response.status {
        StatusCode::UNAUTHORIZED => true,
        StatusCode::FORBIDDEN => body_message(&response.body).is_some_and(|m| {
            let m = m.to_ascii_lowercase();
            m.contains("csrf")
                || m.contains("credentials were not provided")
                || m.contains("session")
        }),
        _ => false,
    }
}

/// Django's own 400 page (not DRF's JSON): what Pulp answers when the session was deleted
/// while the request ran (`SessionInterrupted`, e.g. sessions cleared by an administrator),
/// measured on a login racing `DELETE FROM django_session`. Raised after the view ran, so a
/// read or a login is sent again, and a write may have been carried out.
fn session_interrupted(response: &RawResponse) -> bool {
    response.status == StatusCode::BAD_REQUEST
        && std::str::from_utf8(&response.body)
            .is_ok_and(|body| body.contains("<h1>Bad Request (400)</h1>"))
}

/// The `sessionid` and `csrftoken` among `Set-Cookie` headers.
fn session_cookies(set_cookies: &[String]) -> Option<SessionCookies> {
    let mut sessionid = None;
    let mut csrftoken = None;
    for header in set_cookies {
        let Some((name, value)) = cookie_pair(header) else {
            continue;
        };
        match name {
            "sessionid" => sessionid = Some(value.to_owned()),
            "csrftoken" => csrftoken = Some(value.to_owned()),
            _ => {}
        }
    }
    Some(SessionCookies {
        sessionid: sessionid?,
        csrftoken: csrftoken.unwrap_or_default(),
    })
}

/// `name=value` from `name=value; Path=/; HttpOnly…`; `None` for a cookie being deleted.
fn cookie_pair(header: &str) -> Option<(&str, &str)> {
    let first = header.split(';').next()?;
    let (name, value) = first.split_once('=')?;
    let value = value.trim().trim_matches('"');
    (!value.is_empty()).then_some((name.trim(), value))
}

/// Standard base64 with padding (for the basic-auth header).
fn base64(input: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(input)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b"admin:password"), "YWRtaW46cGFzc3dvcmQ=");
        assert_eq!(base64(b"a"), "YQ==");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"abc"), "YWJj");
        assert_eq!(base64(b""), "");
    }

    #[test]
    fn login_cookies_are_read_from_set_cookie_headers() {
        let headers = vec![
            "csrftoken=Tok123; expires=Sun, 21 Nov 2027 10:00:00 GMT; Max-Age=31449600; Path=/; SameSite=Lax".to_owned(),
            "sessionid=sess456; expires=Sun, 06 Dec 2026 10:00:00 GMT; HttpOnly; Max-Age=1209600; Path=/; SameSite=Lax".to_owned(),
        ];
        let cookies = session_cookies(&headers).expect("cookies");
        assert_eq!(cookies.sessionid, "sess456");
        assert_eq!(cookies.csrftoken, "Tok123");
    }

    #[test]
    fn no_session_cookie_means_no_session() {
        assert!(session_cookies(&["csrftoken=x; Path=/".to_owned()]).is_none());
        assert!(session_cookies(&["sessionid=\"\"; Max-Age=0; Path=/".to_owned()]).is_none());
    }

    fn response(status: u16, body: &str) -> RawResponse {
        RawResponse {
            status: StatusCode::from_u16(status).unwrap(),
            set_cookies: vec![],
            body: Bytes::from(body.to_owned()),
        }
    }

    #[test]
    fn djangos_own_400_page_is_a_session_deleted_mid_request_not_a_filter_error() {
        let django = "<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Bad Request (400)</title>\n</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n";
        assert!(session_interrupted(&response(400, django)));
        assert!(!session_interrupted(&response(
            400,
            r#"{"q":["Filter 'nope' not supported."]}"#
        )));
        assert!(!session_interrupted(&response(
            400,
            "<html><h1><p>Bad Request</p></h1>Request Line is too large (4670 &gt; 4094)</html>"
        )));
        assert!(!session_interrupted(&response(500, django)));
    }

    #[test]
    fn a_refused_session_is_told_from_a_refused_permission() {
        assert!(session_refused(&response(
            401,
            r#"{"detail":"Authentication credentials were not provided."}"#
        )));
        assert!(session_refused(&response(
            403,
            r#"{"detail":"CSRF Failed: CSRF token missing."}"#
        )));
        assert!(!session_refused(&response(
            403,
            r#"{"detail":"You do not have permission to perform this action."}"#
        )));
        assert!(!session_refused(&response(
            404,
            r#"{"detail":"Not found."}"#
        )));
    }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod fake_server_tests;
