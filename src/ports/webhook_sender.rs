//! The webhook sender port: one attempt to deliver one event to one webhook.

use async_trait::async_trait;

use crate::domain::event::{ConsoleEvent, WebhookUrl};

/// Why an attempt did not deliver the event.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// The receiver answered, with a status other than 2xx.
    #[error("the receiver answered {status}")]
    Status { status: u16 },
    /// No complete answer within the delivery timeout.
    #[error("no answer within {seconds} s")]
    Timeout { seconds: u64 },
    /// No answer at all (refused, unreachable, TLS).
    #[error("{0}")]
    Unreachable(String),
    /// The console is not configured to send to this webhook (any more).
    #[error("this webhook is not configured (any more)")]
    NotConfigured,
}

#[async_trait]
pub trait WebhookSender: Send + Sync {
    /// Sends `event` to `webhook` once, signed with that webhook's secret; `Ok` when the
    /// receiver answered 2xx. Bounded by the delivery timeout.
    async fn send(&self, webhook: &WebhookUrl, event: &ConsoleEvent) -> Result<(), SendError>;
}
