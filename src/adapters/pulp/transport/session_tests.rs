//! The session against a small fake Pulp on 127.0.0.1 (what a real server cannot be made
//! to do on demand): a session that expires, a server without a login endpoint, and the
//! CSRF token on unsafe methods.

use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, patch, post};
use axum::{Json, Router};
use serde_json::json;

use crate::adapters::pulp::{PulpClient, PulpSettings, Secret};
use crate::domain::repository::{DistributionHref, PublicationHref, TaskHref};
use crate::ports::{RepositoryManager, WriteOutcome};
use crate::wiring::default_pulp_settings;

const BASIC: &str = "Basic YWRtaW46cGFzc3dvcmQ=";

#[derive(Default)]
struct Fake {
    login_missing: bool,
    logins: u32,
    /// The session the server accepts now (`None`: every session is refused).
    valid: Option<u32>,
    /// Logins still to answer with Django's `SessionInterrupted` page (sessions cleared
    /// while the login ran).
    interrupted_logins: u32,
    /// Writes are answered with that page (the session deleted while the view ran).
    interrupted_writes: bool,
}

/// What Django answers when the request's session was deleted before the response.
const DJANGO_400: &str = "\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Bad Request (400)</title>\n</head>\n<body>\n  <h1>Bad Request (400)</h1><p></p>\n</body>\n</html>\n";

fn django_400() -> Response {
    (StatusCode::BAD_REQUEST, DJANGO_400).into_response()
}

type Shared = Arc<Mutex<Fake>>;

/// `Err` is the refusal to send back (test code: its size does not matter).
#[allow(clippy::result_large_err)]
fn authorized(fake: &Fake, headers: &HeaderMap, unsafe_method: bool) -> Result<(), Response> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    };
    if header("authorization") == BASIC {
        return Ok(());
    }
    let Some(n) = fake
        .valid
        .filter(|n| header("cookie").contains(&format!("sessionid=s{n}")))
    else {
        let body = json!({"detail": "Authentication credentials were not provided."});
        return Err((StatusCode::UNAUTHORIZED, Json(body)).into_response());
    };
    if unsafe_method && header("x-csrftoken") != format!("t{n}") {
        let body = json!({"detail": "CSRF Failed: CSRF token missing."});
        return Err((StatusCode::FORBIDDEN, Json(body)).into_response());
    }
    Ok(())
}

async fn login(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let mut fake = fake.lock().unwrap();
    if fake.login_missing {
        return StatusCode::NOT_FOUND.into_response();
    }
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(BASIC) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"detail": "Invalid username/password."})),
        )
            .into_response();
    }
    if fake.interrupted_logins > 0 {
        fake.interrupted_logins -= 1;
        return django_400();
    }
    fake.logins += 1;
    let n = fake.logins;
    fake.valid = Some(n);
    let mut response = (StatusCode::CREATED, Json(json!({"username": "admin"}))).into_response();
    for cookie in [
        format!("csrftoken=t{n}; Path=/"),
        format!("sessionid=s{n}; HttpOnly; Path=/"),
    ] {
        response
            .headers_mut()
            .append("set-cookie", cookie.parse().unwrap());
    }
    response
}

async fn task(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    if let Err(refusal) = authorized(&fake.lock().unwrap(), &headers, false) {
        return refusal;
    }
    Json(json!({"pulp_href": "/pulp/api/v3/tasks/1/", "state": "completed", "created_resources": []})).into_response()
}

async fn distribution(State(fake): State<Shared>, headers: HeaderMap) -> Response {
    let fake = fake.lock().unwrap();
    if let Err(refusal) = authorized(&fake, &headers, true) {
        return refusal;
    }
    if fake.interrupted_writes {
        return django_400();
    }
    (
        StatusCode::ACCEPTED,
        Json(json!({"task": "/pulp/api/v3/tasks/1/"})),
    )
        .into_response()
}

async fn serve(fake: Fake) -> (PulpClient, Shared) {
    let shared = Arc::new(Mutex::new(fake));
    let app = Router::new()
        .route("/pulp/api/v3/login/", post(login))
        .route("/pulp/api/v3/tasks/1/", get(task))
        .route("/pulp/api/v3/distributions/rpm/rpm/d/", patch(distribution))
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let settings = PulpSettings {
        password: Secret::new("password"),
        ..default_pulp_settings(&base_url).unwrap()
    };
    (PulpClient::new(settings).unwrap(), shared)
}

const TASK: &str = "/pulp/api/v3/tasks/1/";

#[tokio::test]
async fn a_refused_session_is_renewed_once_and_the_request_goes_through() {
    let (client, fake) = serve(Fake::default()).await;
    client
        .read_task(&TaskHref::new(TASK))
        .await
        .expect("first call logs in");
    client
        .read_task(&TaskHref::new(TASK))
        .await
        .expect("second call reuses the session");
    assert_eq!(client.login_count(), 1);
    fake.lock().unwrap().valid = None;
    client
        .read_task(&TaskHref::new(TASK))
        .await
        .expect("renewed transparently");
    assert_eq!(client.login_count(), 2);
    assert_eq!(fake.lock().unwrap().logins, 2);
}

#[tokio::test]
async fn a_login_whose_session_was_deleted_before_the_answer_is_sent_again() {
    let (client, _fake) = serve(Fake {
        interrupted_logins: 1,
        ..Fake::default()
    })
    .await;
    client
        .read_task(&TaskHref::new(TASK))
        .await
        .expect("the second login answers");
    assert_eq!(client.login_count(), 1);
}

#[tokio::test]
async fn a_write_whose_session_was_deleted_mid_request_may_have_landed() {
    let (client, _fake) = serve(Fake {
        interrupted_writes: true,
        ..Fake::default()
    })
    .await;
    let outcome = client
        .point_distribution(
            &DistributionHref::new("/pulp/api/v3/distributions/rpm/rpm/d/"),
            &PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/p/"),
        )
        .await;
    assert!(
        matches!(outcome, WriteOutcome::Unknown { task: None, .. }),
        "Django answers after the view ran: not a proven refusal, {outcome:?}"
    );
    assert_eq!(client.login_count(), 1, "not sent again");
}

#[tokio::test]
async fn unsafe_methods_carry_the_csrf_token() {
    let (client, _fake) = serve(Fake::default()).await;
    let outcome = client
        .point_distribution(
            &DistributionHref::new("/pulp/api/v3/distributions/rpm/rpm/d/"),
            &PublicationHref::new("/pulp/api/v3/publications/rpm/rpm/p/"),
        )
        .await;
    assert_eq!(
        outcome,
        WriteOutcome::Applied(()),
        "the PATCH is accepted with the session and its CSRF token"
    );
    assert_eq!(client.login_count(), 1, "no renewal was needed");
}

#[tokio::test]
async fn without_a_login_endpoint_basic_auth_is_used() {
    let (client, fake) = serve(Fake {
        login_missing: true,
        ..Fake::default()
    })
    .await;
    client
        .read_task(&TaskHref::new(TASK))
        .await
        .expect("basic auth works");
    client.read_task(&TaskHref::new(TASK)).await.expect("again");
    assert_eq!(client.login_count(), 0);
    assert_eq!(fake.lock().unwrap().logins, 0);
}

#[tokio::test]
async fn a_tls_failure_is_unreachable_and_says_tls() {
    let (plain, _fake) = serve(Fake::default()).await;
    let https = plain.settings.base_url.replace("http://", "https://");
    let settings = PulpSettings {
        password: Secret::new("password"),
        ..default_pulp_settings(&https).unwrap()
    };
    let err = PulpClient::new(settings)
        .unwrap()
        .read_task(&TaskHref::new(TASK))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, crate::ports::UpstreamError::Unreachable(m) if m.contains("TLS")),
        "{err:?}"
    );
}
