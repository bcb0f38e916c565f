//! Webhooks over HTTP: each event as a CloudEvents 1.0 JSON document (structured mode),
//! POSTed with its HMAC-SHA256 signature, on hyper-util and rustls like the Pulp client.

mod cloudevent;
mod sender;
mod signature;

pub use cloudevent::{body, CONTENT_TYPE};
pub use sender::{HttpWebhookSender, WebhookSecret};
pub use signature::{sign, SIGNATURE_HEADER};
