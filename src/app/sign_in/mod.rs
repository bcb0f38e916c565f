//! Signing in with an OpenID Connect provider (`[identity] mode = "oidc"`), one use case a
//! file, all over the [`SignInProvider`] and [`SessionStore`] ports:
//!
//! - `begin.rs`: a browser asks for a page while not signed in: a sign-in under way is kept
//!   (its `state`, `nonce`, PKCE verifier and the page to come back to, a path of this site
//!   only), bound to that browser by a cookie of its own, and the browser is sent to the
//!   provider;
//! - `finish.rs`: the provider's answer: the sign-in under way taken once (a replayed
//!   answer finds nothing), its `state` compared, the code redeemed and the ID token checked
//!   by the provider adapter, the claims admitted as an operator (the same PRECIS keys as
//!   the proxy's headers), a session started under a fresh opaque cookie;
//! - `session.rs`: who a request is, from its session cookie: idle and absolute lifetimes
//!   enforced, a session past them ended;
//! - `sign_out.rs`: the session ended here, and where the provider's own sign-out is;
//! - `retention.rs`: stale sessions and sign-ins under way forgotten, hourly.
//!
//! Each sign-in, refusal, sign-out and expiry is an audit line in the session store (who,
//! when, from where, never a token) and a count in the metrics
//! (`repo_console_sign_ins_total{event}`).
//!
//! [`SignInProvider`]: crate::ports::sign_in_provider::SignInProvider
//! [`SessionStore`]: crate::ports::session_store::SessionStore

pub mod begin;
pub mod finish;
pub mod retention;
pub mod session;
pub mod sign_out;

use std::net::IpAddr;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::domain::identity::session::SessionLifetimes;
use crate::domain::identity::CaseMatching;
use crate::ports::session_store::{SessionStore, SignInLine};
use crate::ports::sign_in_provider::SignInProvider;
use crate::ports::{Clock, EventMetrics};

/// How long a sign-in under way waits for the provider's answer.
pub const SIGN_IN_WAIT: chrono::Duration = chrono::Duration::minutes(10);

/// Everything signing in needs, built once by the composition root.
#[derive(Clone)]
pub struct SignIn {
    pub provider: Arc<dyn SignInProvider>,
    pub store: Arc<dyn SessionStore>,
    pub lifetimes: SessionLifetimes,
    /// How the names the provider sends are compared (`identity.case_sensitive`).
    pub matching: CaseMatching,
    pub clock: Arc<dyn Clock>,
    pub metrics: Arc<dyn EventMetrics>,
    /// The cookies' attributes, from `oidc.redirect_url`.
    pub cookies: CookieRules,
    /// Where the provider sends a browser back after its own sign-out (this console's
    /// signed-out page, on the redirect URL's origin).
    pub after_sign_out: String,
}

/// The session and sign-in cookies' names and attributes: `Secure` and the `__Host-`
/// prefix when the console is reached over https (its redirect URL), else (loopback,
/// where a plain http URL is allowed) neither; always `HttpOnly`, `SameSite=Lax`,
/// `Path=/`, no `Domain`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CookieRules {
    pub secure: bool,
}

impl CookieRules {
    /// The session cookie's name.
    pub fn session_name(&self) -> &'static str {
        if self.secure {
            "__Host-rc-session"
        } else {
            "rc-session"
        }
    }

    /// The name of the cookie binding a sign-in under way to its browser.
    pub fn sign_in_name(&self) -> &'static str {
        if self.secure {
            "__Host-rc-sign-in"
        } else {
            "rc-sign-in"
        }
    }

    /// The `Set-Cookie` value giving `name` the value `value` for `max_age` seconds (0:
    /// deleted).
    pub fn set_cookie(&self, name: &str, value: &str, max_age: i64) -> String {
        let secure = if self.secure { "; Secure" } else { "" };
        format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age}{secure}")
    }
}

/// A fresh opaque cookie value: 244 random bits (two UUID v4), hex.
pub(crate) fn fresh_secret() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// The key a cookie's value is kept under: its SHA-256, hex. The stores never hold the
/// value itself.
pub(crate) fn key_of(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

impl SignIn {
    /// Writes an audit line and counts it; a store that cannot write is logged (the event
    /// already happened).
    pub(crate) async fn audit(&self, line: SignInLine) {
        self.metrics.sign_in(line.event);
        tracing::info!(
            target: "repo_console::sign_in",
            event = line.event,
            operator = line.operator.as_deref().unwrap_or(""),
            groups = ?line.groups,
            from = ?line.from,
            reason = line.reason.as_deref().unwrap_or(""),
            "sign-in audit"
        );
        if let Err(error) = self.store.audit(&line).await {
            tracing::error!(%error, event = line.event, "a sign-in audit line could not be written");
        }
    }

    /// An audit line of `event` at the clock's now.
    pub(crate) async fn line(&self, event: &'static str, from: Option<IpAddr>) -> SignInLine {
        SignInLine {
            at: self.clock.now().await,
            event,
            operator: None,
            groups: Vec::new(),
            from,
            reason: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_host_bound_and_secure_over_https_only() {
        let https = CookieRules { secure: true };
        assert_eq!(https.session_name(), "__Host-rc-session");
        assert_eq!(
            https.set_cookie("__Host-rc-session", "v", 60),
            "__Host-rc-session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Secure"
        );
        let loopback = CookieRules { secure: false };
        assert_eq!(loopback.sign_in_name(), "rc-sign-in");
        assert!(!loopback.set_cookie("rc-session", "v", 0).contains("Secure"));
    }

    #[test]
    fn secrets_are_fresh_and_kept_only_as_their_digest() {
        let (a, b) = (fresh_secret(), fresh_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(key_of(&a).len(), 64);
        assert_ne!(key_of(&a), a);
        assert_eq!(key_of("abc"), key_of("abc"));
    }
}
