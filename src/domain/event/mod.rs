//! Events told to webhooks: what happened (the kinds and their data), to whom it is sent
//! (subscriptions), and how each delivery is retried and settled.

pub mod console_event;
pub(crate) mod data;
pub mod delivery;
pub mod webhook;
