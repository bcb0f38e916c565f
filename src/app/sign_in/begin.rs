//! A sign-in begins: the page to come back to checked (a path of this site only), a sign-in
//! under way kept under a fresh cookie of this browser, and the provider's URL to go to.

use std::net::IpAddr;

use crate::domain::identity::session::{ForeignReturn, ReturnPath};
use crate::ports::session_store::{PendingSignIn, SessionStoreError};

use super::{fresh_secret, key_of, SignIn};

/// Where to send the browser, and the cookie that binds the sign-in to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Begun {
    pub provider_url: String,
    /// The sign-in cookie's value (only its digest is kept).
    pub cookie: String,
}

/// Why a sign-in did not begin.
#[derive(Debug, thiserror::Error)]
pub enum NotBegun {
    #[error(transparent)]
    Foreign(#[from] ForeignReturn),
    #[error(transparent)]
    Store(#[from] SessionStoreError),
}

impl SignIn {
    /// Begins a sign-in that comes back to `return_to` (absent: the dashboard). A path
    /// that is not one of this site is refused and audited.
    pub async fn begin(
        &self,
        return_to: Option<&str>,
        from: Option<IpAddr>,
    ) -> Result<Begun, NotBegun> {
        let back = match return_to.map(ReturnPath::parse).transpose() {
            Ok(back) => back.unwrap_or_else(ReturnPath::home),
            Err(foreign) => {
                let mut line = self.line("refused", from).await;
                line.reason = Some(foreign.to_string());
                self.audit(line).await;
                return Err(foreign.into());
            }
        };
        let request = self.provider.authorize();
        let cookie = fresh_secret();
        let pending = PendingSignIn {
            key: key_of(&cookie),
            state: request.state,
            nonce: request.nonce,
            pkce_verifier: request.pkce_verifier,
            return_to: back.as_str().to_owned(),
            started: self.clock.now().await,
        };
        self.store.begin_sign_in(&pending).await?;
        Ok(Begun {
            provider_url: request.url,
            cookie,
        })
    }
}
