//! Forgetting what no cookie can open any more: sessions past their idle or absolute
//! lifetime that no request met (a request that meets one ends and audits it), and sign-ins
//! under way that waited longer than [`SIGN_IN_WAIT`](super::SIGN_IN_WAIT). At start, then
//! every [`EVERY`], on the sign-in's clock.

use std::future::Future;
use std::time::Duration;

use crate::ports::session_store::SessionStoreError;

use super::{SignIn, SIGN_IN_WAIT};

/// Time between two prunings.
pub const EVERY: Duration = Duration::from_secs(3600);

impl SignIn {
    /// Forgets the stale sessions and sign-ins under way; answers how many.
    pub async fn forget_stale(&self) -> Result<usize, SessionStoreError> {
        let now = self.clock.now().await;
        let forgotten = self
            .store
            .forget_stale(
                now - self.lifetimes.idle,
                now - self.lifetimes.max,
                now - SIGN_IN_WAIT,
            )
            .await?;
        if forgotten > 0 {
            tracing::info!(forgotten, store = %self.store.target(), "stale sessions and sign-ins under way forgotten");
        }
        Ok(forgotten)
    }
}

/// Prunes at once, then every [`EVERY`], until `stop` resolves.
pub async fn work(sign_in: SignIn, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    loop {
        if let Err(error) = sign_in.forget_stale().await {
            tracing::warn!(%error, "stale sessions could not be forgotten: tried again later");
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(EVERY) => {}
        }
    }
}
