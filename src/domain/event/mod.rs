//! Events told to webhooks: what happened (the kinds and their data), to whom it is sent
//! (subscriptions), and how each delivery is retried and settled.

pub mod console_event;
pub(crate) mod data;
pub mod delivery;
pub mod edge_data;
pub mod webhook;

pub use console_event::{
    ConsoleEvent, DeploymentData, DriftData, EventData, EventId, EventKind, RepositoryRef,
    RequestData, SyncFailedData, UnknownEvent,
};
pub use delivery::{Delivery, NextAttempt, RetryPolicy, Settlement};
pub use edge_data::EdgeData;
pub use webhook::{subscribers, InvalidWebhookUrl, Subscription, WebhookUrl};
