//! Webhooks over HTTP: each event as a CloudEvents 1.0 JSON document (structured mode),
//! POSTed signed as the Standard Webhooks specification says, on hyper-util and rustls like the Pulp client.

mod cloudevent;
mod secret;
mod sender;
mod signature;

pub use cloudevent::{body, CONTENT_TYPE};
pub use secret::{InvalidSecret, WebhookSecret};
pub use sender::HttpWebhookSender;
pub use signature::{
    sign, sign_standard, ID_HEADER, SIGNATURE_HEADER, STANDARD_SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
