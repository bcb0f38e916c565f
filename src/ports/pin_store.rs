//! The pin store port: where the pins rollbacks set are kept, one record per fact (set,
//! lifted), so that they survive a restart and every replica holds the same environments.
//! It lives where the approval requests live (a file beside the audit log, or the same
//! database). A record that cannot be read never lifts or sets a pin in silence: the pin it
//! concerns reads as [`PinStoreError::Unreadable`] until an operator mends or removes it.

use async_trait::async_trait;

use crate::domain::pin::{Pin, PinKey, PinRecord, UnreadablePin};
use crate::domain::repository::RepoId;

/// Why the store did not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PinStoreError {
    #[error("the pins could not be read or written ({target}): {reason}")]
    Unavailable { target: String, reason: String },
    /// A record of the pin (or one too damaged to tell its pin) cannot be read: the pin is
    /// held as if set (automation and schedules do not move the environment) until an
    /// operator mends or removes the record.
    #[error("{0}: the environment is held as pinned; mend or remove that record (see the file formats reference)")]
    Unreadable(UnreadablePin),
}

#[async_trait]
pub trait PinStore: Send + Sync {
    /// Keeps `record` durably, after every record kept before it.
    async fn append(&self, record: &PinRecord) -> Result<(), PinStoreError>;

    /// The pin that holds on `key` now (`None`: none); [`PinStoreError::Unreadable`] when a
    /// record of the key, or one too damaged to tell its key, cannot be read.
    async fn standing(&self, key: &PinKey) -> Result<Option<Pin>, PinStoreError>;

    /// Every record of repository `repo`, in the order kept (a pin's history in each
    /// environment); [`PinStoreError::Unreadable`] as for [`Self::standing`].
    async fn of_repository(&self, repo: &RepoId) -> Result<Vec<PinRecord>, PinStoreError>;

    /// Where the pins are kept, in words (a path, a database), for messages.
    fn target(&self) -> String;
}
