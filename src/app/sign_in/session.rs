//! Who a request is, from its session cookie: the session found by the cookie's digest,
//! its lifetimes enforced (a session past them is ended and audited as `expired`), a use
//! written down at most once a minute, and the operator restored with the same PRECIS
//! keys and groups as at sign-in.

use std::net::IpAddr;

use crate::domain::identity::Operator;
use crate::ports::Unidentified;

use super::{key_of, SignIn};

impl SignIn {
    /// The operator the session cookie `cookie` names, or why there is none.
    pub async fn who(
        &self,
        cookie: Option<&str>,
        from: Option<IpAddr>,
    ) -> Result<Operator, Unidentified> {
        let cookie = cookie.ok_or(Unidentified::NotSignedIn)?;
        let key = key_of(cookie);
        let unreadable =
            |e: crate::ports::session_store::SessionStoreError| Unidentified::SessionsUnreadable {
                reason: e.to_string(),
            };
        let session = self
            .store
            .find(&key)
            .await
            .map_err(unreadable)?
            .ok_or(Unidentified::NotSignedIn)?;
        let now = self.clock.now().await;
        if let Err(end) = self
            .lifetimes
            .standing(session.started, session.last_seen, now)
        {
            // Only the request that ends it audits it (another may have ended it first).
            if self.store.end(&key).await.map_err(unreadable)? {
                let mut line = self.line("expired", from).await;
                line.operator = Some(session.name.clone());
                line.reason = Some(end.as_str().to_owned());
                self.audit(line).await;
            }
            return Err(Unidentified::SessionEnded {
                why: match end {
                    crate::domain::identity::session::SessionEnd::Idle => format!(
                        "no request for {} minutes",
                        self.lifetimes.idle.num_minutes()
                    ),
                    crate::domain::identity::session::SessionEnd::Max => format!(
                        "signed in more than {} hours ago",
                        self.lifetimes.max.num_hours()
                    ),
                },
            });
        }
        if self.lifetimes.worth_touching(session.last_seen, now) {
            if let Err(error) = self.store.touch(&key, now).await {
                tracing::warn!(%error, "a session's use could not be written down");
            }
        }
        let operator = Operator::with_matching(&session.name, self.matching).map_err(|e| {
            Unidentified::Unusable {
                header: "session".to_owned(),
                reason: e.to_string(),
            }
        })?;
        Ok(operator.with_groups(session.groups))
    }
}
