//! The provider's answer comes back: the sign-in under way of this browser taken (once),
//! the `state` compared, the code redeemed and the ID token checked (the provider
//! adapter), the claims admitted, a session started. Any refusal signs nobody in, is
//! audited with its reason, and leaves no session.

use std::net::IpAddr;

use subtle::ConstantTimeEq;

use crate::domain::identity::session::ReturnPath;
use crate::domain::identity::Operator;
use crate::ports::session_store::StoredSession;
use crate::ports::sign_in_provider::SignInRefused;

use super::{fresh_secret, key_of, SignIn, SIGN_IN_WAIT};

/// What the provider sent back to the browser (the callback's query).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderAnswer {
    pub code: Option<String>,
    pub state: Option<String>,
    /// `error` and `error_description`, when the provider refused.
    pub error: Option<String>,
}

/// A new session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    /// The session cookie's value (only its digest is kept).
    pub cookie: String,
    pub back_to: ReturnPath,
    pub name: String,
}

/// Why the answer signs nobody in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignInFailed {
    /// This browser has no sign-in under way (no cookie, an answer already used, another
    /// browser's, or one that waited too long).
    #[error(
        "this browser has no sign-in under way (it was already completed, waited more than \
         10 minutes, or was begun in another browser): sign in again"
    )]
    NoneUnderWay,
    /// The `state` does not match the sign-in under way.
    #[error("the identity provider's answer does not belong to this browser's sign-in (state mismatch): sign in again")]
    StateMismatch,
    #[error("the identity provider's answer holds no code")]
    NoCode,
    #[error(transparent)]
    Refused(#[from] SignInRefused),
    /// The name the provider sent is not one the console admits.
    #[error("the name '{name}' cannot be used: {reason}")]
    Name { name: String, reason: String },
    #[error("the sessions cannot be written now: {0}")]
    Store(String),
}

impl SignIn {
    /// Completes this browser's sign-in (its sign-in cookie `cookie`) with the provider's
    /// `answer`.
    pub async fn finish(
        &self,
        cookie: Option<&str>,
        answer: ProviderAnswer,
        from: Option<IpAddr>,
    ) -> Result<SignedIn, SignInFailed> {
        match self.complete(cookie, answer).await {
            Ok((signed_in, session)) => {
                let mut line = self.line("signed_in", from).await;
                line.operator = Some(session.name);
                line.groups = session.groups;
                self.audit(line).await;
                Ok(signed_in)
            }
            Err(failed) => {
                let mut line = self.line("refused", from).await;
                line.reason = Some(failed.to_string());
                if let SignInFailed::Name { name, .. } = &failed {
                    line.operator = Some(name.clone());
                }
                self.audit(line).await;
                Err(failed)
            }
        }
    }

    async fn complete(
        &self,
        cookie: Option<&str>,
        answer: ProviderAnswer,
    ) -> Result<(SignedIn, StoredSession), SignInFailed> {
        let store_failed =
            |e: crate::ports::session_store::SessionStoreError| SignInFailed::Store(e.to_string());
        let cookie = cookie.ok_or(SignInFailed::NoneUnderWay)?;
        let pending = self
            .store
            .take_sign_in(&key_of(cookie))
            .await
            .map_err(store_failed)?
            .ok_or(SignInFailed::NoneUnderWay)?;
        let now = self.clock.now().await;
        if now - pending.started > SIGN_IN_WAIT {
            return Err(SignInFailed::NoneUnderWay);
        }
        let state = answer.state.unwrap_or_default();
        if !bool::from(state.as_bytes().ct_eq(pending.state.as_bytes())) {
            return Err(SignInFailed::StateMismatch);
        }
        if let Some(error) = answer.error {
            return Err(SignInRefused::AtProvider(error).into());
        }
        let code = answer.code.ok_or(SignInFailed::NoCode)?;
        let claims = self
            .provider
            .redeem(&code, &pending.pkce_verifier, &pending.nonce)
            .await?;
        let operator = Operator::with_matching(&claims.username, self.matching)
            .map_err(|e| SignInFailed::Name {
                name: claims.username.clone(),
                reason: e.to_string(),
            })?
            .with_groups(claims.groups.clone());
        let back_to = ReturnPath::parse(&pending.return_to).unwrap_or_else(|_| ReturnPath::home());
        let secret = fresh_secret();
        let session = StoredSession {
            key: key_of(&secret),
            name: operator.name().as_str().to_owned(),
            groups: operator.groups(),
            subject: claims.subject,
            started: now,
            last_seen: now,
        };
        self.store.start(&session).await.map_err(store_failed)?;
        let signed_in = SignedIn {
            cookie: secret,
            back_to,
            name: session.name.clone(),
        };
        Ok((signed_in, session))
    }
}
