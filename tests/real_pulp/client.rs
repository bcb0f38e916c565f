//! `PulpClient` against the real Pulp: the contract, authentication, failures,
//! session reuse, pagination and timings.

use std::time::{Duration, Instant};

use futures::future::join_all;
use repo_console::adapters::pulp::{PulpClient, PulpSettings, Secret};
use repo_console::domain::repository::DistributionHref;
use repo_console::ports::{PageRequest, RepositoryManager, UpstreamError};
use repo_console::wiring::default_pulp_settings;
use serde_json::json;

use super::contract::{repository_manager_contract, Fixture};
use super::support::{exclusive, repo_named, required_pulp};

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn pulp_client_keeps_the_repository_manager_contract() {
    let pulp = required_pulp();
    // It repoints a scratch distribution at rc-verified and syncs rc-broken-mirror.
    let _verified = exclusive("rc-verified").await;
    let _broken = exclusive("rc-broken-mirror").await;
    // Scratch distributions left by an earlier run that failed half-way.
    let (_, old) = pulp.raw(
        "GET",
        "distributions/rpm/rpm/?name__startswith=rc-contract-scratch-&fields=pulp_href",
        None,
    );
    for href in old["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["pulp_href"].as_str())
    {
        pulp.raw_ok("DELETE", href, None);
    }
    let name = format!("rc-contract-scratch-{}", std::process::id());
    let created = pulp.raw_ok(
        "POST",
        "distributions/rpm/rpm/",
        Some(&json!({"name": name, "base_path": name})),
    );
    let scratch = created["created_resources"][0]
        .as_str()
        .expect("the new distribution")
        .to_owned();
    let fixture = Fixture {
        scratch_distribution: DistributionHref::new(scratch.clone()),
    };

    repository_manager_contract(&pulp.client(), &fixture).await;

    pulp.raw_ok("DELETE", &scratch, None);
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_wrong_password_is_an_authentication_error() {
    let pulp = required_pulp();
    let client = PulpClient::new(PulpSettings {
        password: Secret::new("not-the-password"),
        ..pulp.settings()
    })
    .expect("settings");
    match client.list_distributions().await {
        Err(UpstreamError::Auth(message)) => {
            assert!(message.contains("Invalid username/password"), "{message}")
        }
        other => panic!("expected Auth, got {other:?}"),
    }
}

#[tokio::test]
async fn a_refused_port_is_unreachable_at_once() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        listener.local_addr().expect("address").port()
    };
    let settings = PulpSettings {
        password: Secret::new("x"),
        ..default_pulp_settings(&format!("http://127.0.0.1:{port}")).unwrap()
    };
    let started = Instant::now();
    let err = PulpClient::new(settings)
        .expect("settings")
        .list_distributions()
        .await
        .expect_err("refused");
    let took = started.elapsed();
    match &err {
        UpstreamError::Unreachable(m) => assert!(m.contains(&format!("127.0.0.1:{port}")), "{m}"),
        other => panic!("expected Unreachable, got {other:?}"),
    }
    assert!(
        took < Duration::from_secs(3),
        "refusal is immediate, took {took:?}"
    );
    println!("refused port: {err} ({} ms)", took.as_millis());
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_missing_repository_is_a_404_with_pulps_words() {
    let pulp = required_pulp();
    let nobody =
        repo_console::domain::repository::RepoId::parse("00000000-0000-0000-0000-000000000000")
            .expect("uuid");
    match pulp.client().get_repo(&nobody).await {
        Err(UpstreamError::Http {
            status: 404,
            message,
        }) => {
            assert_eq!(message, "No RpmRepository matches the given query.")
        }
        other => panic!("expected a 404, got {other:?}"),
    }
}

/// Issue 45: a base URL that repeats the API's path (`…/pulp/api/v3/`, as pulp-cli users
/// sometimes write it) makes every list a 404; the error says what to fix.
#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_base_url_with_the_api_path_gets_a_404_that_names_the_fix() {
    let pulp = required_pulp();
    let settings = pulp.settings();
    let client = PulpClient::new(PulpSettings {
        base_url: format!("{}/pulp/api/v3/", settings.base_url.trim_end_matches('/')),
        ..settings
    })
    .expect("settings");
    match client.list_distributions().await {
        Err(UpstreamError::Http {
            status: 404,
            message,
        }) => {
            assert!(
                message.contains("pulp.base_url must be the server alone"),
                "{message}"
            );
            assert!(message.contains("/pulp/api/v3/pulp/api/v3/"), "{message}");
        }
        other => panic!("expected a 404, got {other:?}"),
    }
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn one_login_serves_many_requests_even_concurrent_ones() {
    let pulp = required_pulp();
    // Counts logins: not while another test clears Pulp's sessions.
    let _sessions = exclusive("pulp-sessions").await;
    let client = pulp.client();
    let id = repo_named(&client, "rc-verified").await;
    let concurrent = join_all((0..10).map(|_| client.get_repo(&id))).await;
    assert!(concurrent.iter().all(Result::is_ok));
    assert_eq!(
        client.login_count(),
        1,
        "ten concurrent first calls share one login"
    );

    let started = Instant::now();
    for _ in 0..20 {
        client.get_repo(&id).await.expect("get_repo");
    }
    let session = started.elapsed();
    assert_eq!(client.login_count(), 1, "the session is reused");
    println!(
        "20 sequential get_repo with one session: {} ms in all, {} ms each (basic auth costs ~500 ms each)",
        session.as_millis(),
        session.as_millis() / 20
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn small_pages_still_give_whole_lists() {
    let pulp = required_pulp();
    // Compares the distribution list with Pulp's: not while other tests add or remove some
    // (the contract's scratch distribution, the vanishing production distribution).
    let _verified = exclusive("rc-verified").await;
    let _vanishing = exclusive("rc-vanishing").await;
    let client = PulpClient::new(PulpSettings {
        page_size: 2,
        ..pulp.settings()
    })
    .expect("settings");
    let wanted = [
        "rc-verified-prod",
        "rc-verified-staging",
        "rc-vanishing-prod",
    ]
    .map(String::from);
    let mut named: Vec<String> = client
        .distributions_named(&wanted)
        .await
        .expect("named distributions, two to a page")
        .into_iter()
        .map(|d| d.name)
        .collect();
    named.sort_unstable();
    assert_eq!(
        named,
        [
            "rc-vanishing-prod",
            "rc-verified-prod",
            "rc-verified-staging"
        ]
    );

    let dists = client.list_distributions().await.expect("distributions");
    let (_, raw) = pulp.raw("GET", "distributions/rpm/rpm/?limit=1000&fields=name", None);
    // Debian's too, when Pulp has pulp_deb (a 404 without it).
    let (_, raw_deb) = pulp.raw("GET", "distributions/deb/apt/?limit=1000&fields=name", None);
    let mut raw_names: Vec<&str> = [&raw, &raw_deb]
        .into_iter()
        .filter_map(|list| list["results"].as_array())
        .flatten()
        .filter_map(|d| d["name"].as_str())
        .collect();
    let mut names: Vec<&str> = dists.iter().map(|d| d.name.as_str()).collect();
    raw_names.sort_unstable();
    names.sort_unstable();
    assert!(names.len() > 2, "several distributions, listed in one call");
    assert_eq!(names, raw_names);
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn timings_with_a_session_and_with_basic_auth() {
    let pulp = required_pulp();
    let _sessions = exclusive("pulp-sessions").await;
    for (label, use_session) in [("session", true), ("basic auth", false)] {
        let client = PulpClient::new(PulpSettings {
            use_session,
            ..pulp.settings()
        })
        .expect("settings");
        let id = repo_named(&client, "rc-verified").await;
        let mut runs = Vec::new();
        let screen = PageRequest {
            offset: 0,
            limit: 50,
        };
        for _ in 0..3 {
            let started = Instant::now();
            client.get_repo(&id).await.expect("repository");
            client.version_page(&id, screen).await.expect("versions");
            client.list_distributions().await.expect("distributions");
            runs.push(started.elapsed().as_millis());
        }
        let started = Instant::now();
        let (r, v, d) = futures::join!(
            client.get_repo(&id),
            client.version_page(&id, screen),
            client.list_distributions()
        );
        let together = started.elapsed().as_millis();
        assert!(r.is_ok() && v.is_ok() && d.is_ok());
        assert_eq!(
            client.login_count(),
            u64::from(use_session),
            "{label}: logins"
        );
        println!(
            "{label}: get_repo + version_page + list_distributions, one after the other: {runs:?} ms; \
             concurrently: {together} ms; logins: {}",
            client.login_count()
        );
    }
}

/// Pulp forgets the client's session (as when it expires or an admin clears them): the next
/// request is refused, and the client logs in again by itself and answers normally.
#[tokio::test]
#[ignore = "needs a real Pulp and PostgreSQL"]
async fn an_expired_session_is_renewed_transparently() {
    let pulp = required_pulp();
    let port = super::database::required_postgres_port();
    let _sessions = exclusive("pulp-sessions").await;
    let sql = |statement: &str| {
        let out = std::process::Command::new("psql")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-d",
                "pulp",
                "-qAtc",
            ])
            .arg(statement)
            .output()
            .expect("psql runs");
        assert!(out.status.success(), "{statement}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let before = sql("SELECT session_key FROM django_session");
    let client = pulp.client();
    let id = repo_named(&client, "rc-verified").await;
    assert_eq!(client.login_count(), 1);
    // Only the sessions opened since `before` (this client's, and any a parallel test opened
    // meanwhile): clearing every session would pull them from under the other tests.
    let ours: Vec<String> = sql("SELECT session_key FROM django_session")
        .lines()
        .filter(|key| !before.lines().any(|old| old == *key))
        .map(|key| format!("'{key}'"))
        .collect();
    assert!(!ours.is_empty(), "the client's login made a session");
    sql(&format!(
        "DELETE FROM django_session WHERE session_key IN ({})",
        ours.join(",")
    ));
    let repo = client
        .get_repo(&id)
        .await
        .expect("answered after logging in again");
    assert_eq!(repo.name.as_deref(), Some("rc-verified"));
    assert_eq!(
        client.login_count(),
        2,
        "one new login, done by the client itself"
    );
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn each_request_to_pulp_is_timed_by_operation_and_status() {
    let pulp = required_pulp();
    use repo_console::ports::EventMetrics;
    let metrics = std::sync::Arc::new(repo_console::adapters::metrics::Metrics::new());
    let client = pulp.client().measured_by(metrics.clone());
    let id = repo_named(&client, "rc-verified").await;
    let missing =
        repo_console::domain::repository::RepoId::parse("0199a1b2-0000-7000-8000-00000000000a")
            .unwrap();
    assert!(client.get_repo(&missing).await.is_err());
    let text = metrics.render();
    let count = |operation: &str, status: &str| {
        let series = format!(
            "repo_console_pulp_request_duration_seconds_count{{operation=\"{operation}\",status=\"{status}\"}} "
        );
        text.lines()
            .find_map(|l| l.strip_prefix(&series))
            .map_or(0, |v| v.parse::<u64>().unwrap())
    };
    assert!(
        count("GET repositories/rpm/rpm/{id}/", "404") >= 1,
        "{text}"
    );
    assert!(client.get_repo(&id).await.is_ok());
    assert!(count("GET repositories/rpm/rpm/", "200") >= 1, "{text}");
}
