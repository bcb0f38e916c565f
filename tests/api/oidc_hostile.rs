//! The ID token checks, each met by a provider that lies (issue 49): a small provider of the
//! test's own on 127.0.0.1 (discovery, keys, token endpoint), whose token endpoint answers
//! an ID token crafted for the scenario and signed with RSA keys made by `openssl` for the
//! test. A token for another audience, one expired, one signed by a key the provider does not
//! publish, one from another issuer, one carrying another nonce: each refused with nothing
//! signed in. The same provider answering an honest token signs in, so the refusals are the
//! checks' and not the harness's; it also checks PKCE, which `oidc-provider-mock` does not:
//! the verifier the console sends is the one its S256 challenge was made of.

use std::collections::HashMap;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Utc;
use openidconnect::core::{
    CoreGenderClaim, CoreIdToken, CoreJsonWebKeySet, CoreJwsSigningAlgorithm,
    CoreRsaPrivateSigningKey,
};
use openidconnect::{
    AccessToken, Audience, EmptyAdditionalClaims, IdTokenClaims, IssuerUrl, JsonWebKeyId, Nonce,
    PrivateSigningKey, StandardClaims, SubjectIdentifier,
};
use repo_console::adapters::identity::oidc::provider::{OidcProvider, OidcSettings};
use repo_console::adapters::identity::oidc::session_cookie::SessionCookie;
use repo_console::adapters::memory::{ManualClock, MemorySessionStore};
use repo_console::app::sign_in::{CookieRules, SignIn};
use repo_console::domain::identity::session::SessionLifetimes;
use repo_console::domain::identity::CaseMatching;
use repo_console::ports::session_store::SessionStore;

use crate::helpers::*;

/// How the next ID token is made.
#[derive(Clone)]
struct Craft {
    audience: String,
    issuer: Option<String>,
    expires_in: chrono::Duration,
    nonce: String,
    /// Signed by the key the provider does not publish.
    foreign_key: bool,
}

struct Liar {
    issuer: String,
    published: CoreRsaPrivateSigningKey,
    foreign: CoreRsaPrivateSigningKey,
    next: Mutex<Option<Craft>>,
    /// The last token request's form, as sent.
    asked: Mutex<HashMap<String, String>>,
    /// The last authorization request's PKCE challenge.
    challenge: Mutex<String>,
}

fn rsa_key(kid: &str) -> CoreRsaPrivateSigningKey {
    let out = Command::new("openssl")
        .args(["genrsa", "-traditional", "2048"])
        .output()
        .unwrap_or_else(|e| crate::needs::missing("openssl", &format!("cannot run it: {e}")));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pem = String::from_utf8(out.stdout).unwrap();
    CoreRsaPrivateSigningKey::from_pem(&pem, Some(JsonWebKeyId::new(kid.into()))).unwrap()
}

async fn start_liar() -> Arc<Liar> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", listener.local_addr().unwrap());
    let liar = Arc::new(Liar {
        issuer: issuer.clone(),
        published: rsa_key("published"),
        foreign: rsa_key("published"),
        next: Mutex::new(None),
        asked: Mutex::default(),
        challenge: Mutex::default(),
    });
    let discovery = serde_json::json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "jwks_uri": format!("{issuer}/jwks"),
        "response_types_supported": ["code"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    });
    let keys = CoreJsonWebKeySet::new(vec![liar.published.as_verification_key()]);
    let token_liar = liar.clone();
    let app = Router::new()
        .route(
            "/.well-known/openid-configuration",
            get(move || async move { Json(discovery) }),
        )
        .route("/jwks", get(move || async move { Json(keys) }))
        .route(
            "/token",
            post(
                move |form: axum::Form<HashMap<String, String>>| async move {
                    *token_liar.asked.lock().unwrap() = form.0;
                    Json(token_liar.token())
                },
            ),
        );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    liar
}

impl Liar {
    fn token(&self) -> serde_json::Value {
        let craft = self.next.lock().unwrap().clone().expect("a crafted token");
        let now = Utc::now();
        let issuer = craft.issuer.unwrap_or_else(|| self.issuer.clone());
        let claims = IdTokenClaims::<EmptyAdditionalClaims, CoreGenderClaim>::new(
            IssuerUrl::new(issuer).unwrap(),
            vec![Audience::new(craft.audience)],
            now + craft.expires_in,
            now - chrono::Duration::minutes(1),
            StandardClaims::new(SubjectIdentifier::new("alice-sub".into()))
                .set_preferred_username(Some(openidconnect::EndUserUsername::new("alice".into()))),
            EmptyAdditionalClaims {},
        )
        .set_nonce(Some(Nonce::new(craft.nonce)));
        let key = if craft.foreign_key {
            &self.foreign
        } else {
            &self.published
        };
        let access = AccessToken::new("at".into());
        let token = CoreIdToken::new(
            claims,
            key,
            CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256,
            Some(&access),
            None,
        )
        .unwrap();
        serde_json::json!({
            "access_token": "at",
            "token_type": "Bearer",
            "expires_in": 3600,
            "id_token": token.to_string(),
        })
    }
}

struct Console {
    app: TestApp,
    store: Arc<MemorySessionStore>,
}

async fn console(liar: &Liar) -> Console {
    let settings = OidcSettings {
        issuer: liar.issuer.clone(),
        client_id: "repo-console".into(),
        client_secret: "s3cret".into(),
        scopes: vec!["openid".into()],
        username_claim: "preferred_username".into(),
        groups_claim: "groups".into(),
        redirect_url: "http://127.0.0.1/oidc/callback".into(),
    };
    let provider = OidcProvider::discover(&settings, Duration::from_secs(10))
        .await
        .unwrap();
    let store = Arc::new(MemorySessionStore::default());
    let sign_in = SignIn {
        provider: Arc::new(provider),
        store: store.clone(),
        lifetimes: SessionLifetimes {
            idle: chrono::Duration::minutes(30),
            max: chrono::Duration::hours(8),
        },
        matching: CaseMatching::default(),
        clock: Arc::new(ManualClock::new(pinned_time())),
        metrics: Arc::new(repo_console::adapters::metrics::Metrics::new()),
        cookies: CookieRules { secure: false },
        after_sign_out: "http://127.0.0.1/oidc/signed-out".into(),
    };
    let kept = sign_in.clone();
    let app = fixture_app()
        .identity(Arc::new(SessionCookie::new(sign_in)))
        .configure(move |state| state.sign_in(kept))
        .spawn()
        .await;
    Console { app, store }
}

/// Begins a sign-in, makes the liar answer `craft` (its nonce the sign-in's, unless the
/// craft names another), and brings a code back: the console's answer, and whether a session
/// cookie came with it.
async fn attempt(
    console: &Console,
    liar: &Liar,
    craft: impl FnOnce(String) -> Craft,
) -> (u16, String, bool) {
    let begun = console.app.client.get("/oidc/sign-in?return=/").await;
    assert_eq!(begun.status, 303);
    let authorize = url::Url::parse(begun.header("location")).unwrap();
    let query: HashMap<_, _> = authorize.query_pairs().into_owned().collect();
    assert_eq!(query["code_challenge_method"], "S256");
    *liar.challenge.lock().unwrap() = query["code_challenge"].clone();
    *liar.next.lock().unwrap() = Some(craft(query["nonce"].clone()));
    let cookie = begun
        .header("set-cookie")
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let path = format!("/oidc/callback?code=c0de&state={}", query["state"]);
    let reply = console
        .app
        .client
        .send("GET", &path, &[("cookie", &cookie)], "")
        .await;
    let session = reply.headers.get_all("set-cookie").iter().any(|c| {
        c.to_str().unwrap().starts_with("rc-session=") && !c.to_str().unwrap().contains("Max-Age=0")
    });
    (reply.status, reply.body, session)
}

/// A lie: its name, how its token is made, and a word the refusal names.
type Lie = (&'static str, Box<dyn Fn(String) -> Craft>, &'static str);

fn honest(nonce: String) -> Craft {
    Craft {
        audience: "repo-console".into(),
        issuer: None,
        expires_in: chrono::Duration::minutes(5),
        nonce,
        foreign_key: false,
    }
}

#[tokio::test]
async fn every_lie_in_an_id_token_is_refused_with_nothing_signed_in() {
    let liar = start_liar().await;
    let console = console(&liar).await;
    let (status, body, session) = attempt(&console, &liar, honest).await;
    assert_eq!(
        (status, session),
        (303, true),
        "an honest token signs in: {body}"
    );
    let asked = liar.asked.lock().unwrap().clone();
    assert_eq!(asked["grant_type"], "authorization_code");
    assert_eq!(asked["code"], "c0de");
    assert_eq!(asked["redirect_uri"], "http://127.0.0.1/oidc/callback");
    let challenge = liar.challenge.lock().unwrap().clone();
    let verifier = &asked["code_verifier"];
    use base64::Engine;
    use sha2::Digest;
    let derived = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(sha2::Sha256::digest(verifier.as_bytes()));
    assert_eq!(
        derived, challenge,
        "PKCE: the verifier sent is the one the S256 challenge was made of"
    );

    let lies: [Lie; 5] = [
        (
            "another audience",
            Box::new(|n| Craft {
                audience: "another-app".into(),
                ..honest(n)
            }),
            "audience",
        ),
        (
            "expired",
            Box::new(|n| Craft {
                expires_in: chrono::Duration::seconds(-30),
                ..honest(n)
            }),
            "xpired",
        ),
        (
            "an unpublished key",
            Box::new(|n| Craft {
                foreign_key: true,
                ..honest(n)
            }),
            "signature",
        ),
        (
            "another issuer",
            Box::new(|n| Craft {
                issuer: Some("https://evil.example".into()),
                ..honest(n)
            }),
            "issuer",
        ),
        (
            "another nonce",
            Box::new(|_| honest("the-attackers-nonce".into())),
            "nonce",
        ),
    ];
    for (lie, craft, word) in lies {
        let (status, body, session) = attempt(&console, &liar, craft).await;
        assert_eq!(status, 403, "{lie}: {body}");
        assert!(!session, "{lie}: no session");
        assert!(body.contains("ID token was refused"), "{lie}: {body}");
        assert!(
            body.to_lowercase().contains(word),
            "{lie} names {word}: {body}"
        );
    }
    let events: Vec<_> = console
        .store
        .audit_lines()
        .await
        .unwrap()
        .iter()
        .map(|l| l.event)
        .collect();
    assert_eq!(
        events,
        [
            "signed_in",
            "refused",
            "refused",
            "refused",
            "refused",
            "refused"
        ]
    );
}
