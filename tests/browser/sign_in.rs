//! Signing in with an OpenID Connect provider in Chromium (issue 49), against a real
//! provider (`oidc-provider-mock`, its own sign-in form): a page asked for while signed out
//! goes to the provider and comes back to that page, the header naming the operator and
//! groups; alice (group claim `release`) deploys to production, carol (no such claim) sees
//! the Deploy buttons disabled by the policy; signing out ends the session here and at the
//! provider (its end-session page, then the console's signed-out page); a session idle past
//! its lifetime goes back to the provider.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use repo_console::adapters::identity::oidc::provider::{OidcProvider, OidcSettings};
use repo_console::adapters::identity::oidc::session_cookie::SessionCookie;
use repo_console::adapters::memory::{ManualClock, MemorySessionStore};
use repo_console::app::sign_in::{CookieRules, SignIn};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::session::SessionLifetimes;
use repo_console::domain::identity::CaseMatching;
use repo_console::domain::policy::{Allowed, Policy, Subject};
use repo_console::domain::repository::RepoId;
use serde_json::json;

use super::browser::Browser;
use super::versions::open_modal;
use super::world;
use crate::oidc_provider::MockProvider;
use crate::test_app::Standing;

pub struct SigningApp {
    pub address: String,
    pub provider: MockProvider,
    pub clock: Arc<ManualClock>,
    pub repo: RepoId,
    _standing: Standing<RepoId>,
}

pub async fn spawn_app() -> SigningApp {
    let provider = MockProvider::start().await;
    provider
        .set_user(
            "alice-sub",
            json!({"preferred_username": "alice", "groups": ["release"]}),
        )
        .await;
    provider
        .set_user(
            "carol-sub",
            json!({"preferred_username": "carol", "groups": ["dev"]}),
        )
        .await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let settings = OidcSettings {
        issuer: provider.issuer(),
        client_id: "repo-console".into(),
        client_secret: "s3cret".into(),
        scopes: vec!["openid".into(), "profile".into()],
        username_claim: "preferred_username".into(),
        groups_claim: "groups".into(),
        redirect_url: format!("{address}/oidc/callback"),
    };
    let discovered = OidcProvider::discover(&settings, Duration::from_secs(10))
        .await
        .expect("discovery");
    let clock = Arc::new(ManualClock::new(chrono::Utc::now()));
    let sign_in = SignIn {
        provider: Arc::new(discovered),
        store: Arc::new(MemorySessionStore::default()),
        lifetimes: SessionLifetimes {
            idle: chrono::Duration::minutes(30),
            max: chrono::Duration::hours(8),
        },
        matching: CaseMatching::default(),
        clock: clock.clone(),
        metrics: Arc::new(repo_console::adapters::metrics::Metrics::new()),
        cookies: CookieRules { secure: false },
        after_sign_out: format!("{address}/oidc/signed-out"),
    };
    let policy = Policy::new(
        BTreeMap::from([(
            EnvironmentName::production(),
            Allowed::Only(vec![Subject::parse("group:release").unwrap()]),
        )]),
        Allowed::Everyone,
    );
    let standing = world::suite_app(|memory| world::build(memory).baseos)
        .policy(policy)
        .build();
    let kept = sign_in.clone();
    let state = standing
        .state
        .rebuild()
        .identity(Arc::new(SessionCookie::new(sign_in)))
        .sign_in(kept)
        .build();
    tokio::spawn(repo_console::adapters::web::serve_with(
        listener,
        state,
        std::future::pending(),
        repo_console::adapters::web::EdgeSettings::default(),
    ));
    SigningApp {
        address,
        provider,
        clock,
        repo: standing.fixture.clone(),
        _standing: standing,
    }
}

async fn open(b: &Browser, url: &str) {
    b.js::<()>("window.location.href = arguments[0]", vec![json!(url)])
        .await;
}

/// At the provider's sign-in form, signs `sub` in.
async fn sign_in_at_provider(b: &Browser, app: &SigningApp, sub: &str) {
    b.wait_until_with(
        "the provider's sign-in form",
        "return location.href.indexOf(arguments[0]) === 0 && document.readyState === 'complete'
           && !!document.querySelector('input[name=sub]')",
        vec![json!(app.provider.issuer())],
    )
    .await;
    b.js::<()>(
        "var f = document.querySelector('input[name=sub]'); f.value = arguments[0]; f.form.submit()",
        vec![json!(sub)],
    )
    .await;
}

async fn wait_back_on(b: &Browser, path: &str) {
    b.wait_until_with(
        &format!("back on {path}, signed in"),
        "return location.pathname === arguments[0] && document.readyState === 'complete'
           && !!window.htmx && !!document.getElementById('sign-out')",
        vec![json!(path)],
    )
    .await;
}

async fn operator_shown(b: &Browser) -> (String, String) {
    b.js(
        "var o = document.getElementById('operator');
         return [o.querySelector('bdi').textContent, o.getAttribute('data-groups')]",
        vec![],
    )
    .await
}

async fn sign_out(b: &Browser, app: &SigningApp) {
    b.find("#sign-out button")
        .await
        .click()
        .await
        .expect("click Sign out");
    // The provider's end-session page, then back to the console's signed-out page.
    b.wait_until_with(
        "the provider's end-session page",
        "return location.href.indexOf(arguments[0] + '/oauth2/end_session') === 0
           && document.readyState === 'complete' && !!document.querySelector('form button')",
        vec![json!(app.provider.issuer())],
    )
    .await;
    b.js::<()>("document.querySelector('form button').click()", vec![])
        .await;
    b.wait_until(
        "the console's signed-out page",
        "return location.pathname === '/oidc/signed-out' && !!document.getElementById('signed-out')",
    )
    .await;
}

/// Every step of signing in and out, a deploy allowed by a group claim and refused without
/// it, and an idle session sent back to the provider.
pub async fn sign_in_deploy_sign_out_and_expire(b: &Browser, app: &SigningApp) {
    let versions = format!("/repos/{}/versions", app.repo);
    open(b, &format!("{}{versions}", app.address)).await;
    sign_in_at_provider(b, app, "alice-sub").await;
    wait_back_on(b, &versions).await;
    assert_eq!(operator_shown(b).await, ("alice".into(), "release".into()));
    b.screenshot("signed-in-header").await;
    super::a11y::check_themes(
        b,
        "the header of a signed-in operator, with the sign-out button",
    )
    .await;

    open_modal(b, 4).await;
    b.keys("rhel9-baseos").await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Confirm deploy");
    b.wait_until(
        "the deploy went through (the banner)",
        "return !document.getElementById('deploy-modal') && !!document.getElementById('deploy-banner')",
    )
    .await;
    let banner: String = b
        .js(
            "return document.getElementById('deploy-banner').textContent",
            vec![],
        )
        .await;
    assert!(banner.contains("v4"), "alice deployed v4: {banner}");

    sign_out(b, app).await;
    open(b, &format!("{}/", app.address)).await;
    sign_in_at_provider(b, app, "carol-sub").await;
    wait_back_on(b, "/").await;
    assert_eq!(operator_shown(b).await, ("carol".into(), "dev".into()));
    b.goto(&versions).await;
    let denied: (String, bool) = b
        .js(
            "var d = document.querySelector(\"[data-deploy-version='5']\");
             return [d.getAttribute('data-denied') || '', d.disabled]",
            vec![],
        )
        .await;
    assert_eq!(
        denied,
        ("policy".into(), true),
        "no release group claim: no deploy"
    );

    app.clock.advance(chrono::Duration::minutes(31));
    open(b, &format!("{}/releases", app.address)).await;
    sign_in_at_provider(b, app, "carol-sub").await;
    wait_back_on(b, "/releases").await;
}
