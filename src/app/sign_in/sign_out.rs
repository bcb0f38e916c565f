//! Signing out: the session ended here (whichever replica is asked), audited, and where the
//! provider ends its own session (RP-initiated logout), when it offers one.

use std::net::IpAddr;

use super::{key_of, SignIn};

impl SignIn {
    /// Ends the session of cookie `cookie` (none: nothing to end); answers the provider's
    /// sign-out URL, when it has one.
    pub async fn sign_out(&self, cookie: Option<&str>, from: Option<IpAddr>) -> Option<String> {
        if let Some(cookie) = cookie {
            let key = key_of(cookie);
            let session = self.store.find(&key).await.ok().flatten();
            match self.store.end(&key).await {
                Ok(true) => {
                    let mut line = self.line("signed_out", from).await;
                    line.operator = session.map(|s| s.name);
                    self.audit(line).await;
                }
                Ok(false) => {}
                Err(error) => {
                    tracing::error!(%error, "a session could not be ended on sign-out")
                }
            }
        }
        self.provider.sign_out_url(&self.after_sign_out)
    }
}
