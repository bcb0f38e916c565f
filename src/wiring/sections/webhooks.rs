//! `[[webhooks]]`, `[webhook_delivery]` and `[drift]`, checked: each webhook's URL, the
//! events it wants (named as the book lists them; absent: every one), its secret read
//! from `secret_file` at start (never logged: one line, or two while rotating; `whsec_<base64>`
//! or raw bytes), the CA of its receiver's TLS from `ca_file`; delivery timeouts and retries
//! within bounds.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use rustls::RootCertStore;
use serde::Deserialize;

use crate::adapters::shared::tls_roots;
use crate::adapters::webhook::WebhookSecret;
use crate::domain::event::{EventKind, RetryPolicy, Subscription, WebhookUrl};

use crate::wiring::sections::error::{invalid, ConfigError};

/// The CloudEvents `source` when `webhook_delivery.source` is empty.
const DEFAULT_SOURCE: &str = "repo-console";

/// The webhooks and how their events are delivered.
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    pub hooks: Vec<ConfiguredWebhook>,
    pub source: String,
    /// The bound of one attempt.
    pub timeout: Duration,
    pub retry: RetryPolicy,
    /// How long the outbox keeps an event after its deliveries ended.
    pub retention: Duration,
    /// Also sign with the deprecated body-only header (`webhook_delivery.deprecated_signature`).
    pub deprecated_signature: bool,
}

/// One webhook: what it wants, its secret, and what its receiver's TLS is trusted by.
#[derive(Debug, Clone)]
pub struct ConfiguredWebhook {
    pub subscription: Subscription,
    pub secret: WebhookSecret,
    /// The default roots and its `ca_file`'s certificates, when it has one.
    pub trusted: Option<RootCertStore>,
}

pub(crate) fn validate(
    raw: Vec<RawWebhook>,
    delivery: RawWebhookDelivery,
) -> Result<WebhookSettings, ConfigError> {
    let mut hooks: Vec<ConfiguredWebhook> = Vec::new();
    for (i, raw) in raw.into_iter().enumerate() {
        let hook = webhook(i, raw)?;
        if hooks
            .iter()
            .any(|h| h.subscription.url == hook.subscription.url)
        {
            let reason = format!("{} is named twice", hook.subscription.url);
            return Err(invalid(format!("webhooks[{i}].url"), reason));
        }
        hooks.push(hook);
    }
    let within = |key: &'static str, value: u64, min: u64, max: u64| {
        if (min..=max).contains(&value) {
            return Ok(value);
        }
        Err(invalid(
            key,
            format!("{value}: must be between {min} and {max}"),
        ))
    };
    let timeout = within(
        "webhook_delivery.timeout_secs",
        delivery.timeout_secs,
        1,
        300,
    )?;
    let first = within(
        "webhook_delivery.retry_first_secs",
        delivery.retry_first_secs,
        1,
        86_400,
    )?;
    let max = within(
        "webhook_delivery.retry_max_secs",
        delivery.retry_max_secs,
        first,
        86_400,
    )?;
    let hours = within(
        "webhook_delivery.give_up_hours",
        delivery.give_up_hours,
        1,
        24 * 30,
    )?;
    let retention_days = within(
        "webhook_delivery.retention_days",
        delivery.retention_days,
        1,
        3650,
    )?;
    let source = delivery.source.trim();
    if source.contains(char::is_whitespace) {
        let reason = format!("'{source}' holds a space: write the console's URL");
        return Err(invalid("webhook_delivery.source", reason));
    }
    Ok(WebhookSettings {
        hooks,
        source: if source.is_empty() {
            DEFAULT_SOURCE
        } else {
            source
        }
        .to_owned(),
        timeout: Duration::from_secs(timeout),
        retry: RetryPolicy {
            first: Duration::from_secs(first),
            cap: Duration::from_secs(max),
            give_up_after: Duration::from_secs(hours * 3600),
        },
        retention: Duration::from_secs(retention_days * 86_400),
        deprecated_signature: delivery.deprecated_signature,
    })
}

fn webhook(i: usize, raw: RawWebhook) -> Result<ConfiguredWebhook, ConfigError> {
    let key = |field: &str| format!("webhooks[{i}].{field}");
    let url = WebhookUrl::parse(raw.url.trim()).map_err(|e| invalid(key("url"), e.to_string()))?;
    let events: BTreeSet<EventKind> = match raw.events {
        None => EventKind::ALL.into_iter().collect(),
        Some(names) => names
            .iter()
            .map(|name| EventKind::parse(name.trim()))
            .collect::<Result<_, _>>()
            .map_err(|e| invalid(key("events"), e.to_string()))?,
    };
    if events.is_empty() {
        let reason =
            "an empty list sends nothing: name events, or leave the key out for all".into();
        return Err(invalid(key("events"), reason));
    }
    let Some(path) = raw.secret_file.filter(|p| !p.as_os_str().is_empty()) else {
        let reason =
            "required: a file whose first line is the secret deliveries are signed with (a second line while rotating)".into();
        return Err(invalid(key("secret_file"), reason));
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        invalid(
            key("secret_file"),
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let secret = WebhookSecret::parse(&text)
        .map_err(|e| invalid(key("secret_file"), format!("{}: {e}", path.display())))?;
    let trusted = match raw.ca_file.filter(|p| !p.as_os_str().is_empty()) {
        None => None,
        Some(ca_file) => {
            let mut roots = tls_roots::web_and_system();
            tls_roots::add_pem_bundle(&mut roots, &ca_file)
                .map_err(|reason| invalid(key("ca_file"), reason))?;
            Some(roots)
        }
    };
    Ok(ConfiguredWebhook {
        subscription: Subscription { url, events },
        secret,
        trusted,
    })
}

/// The interval between two drift checks; zero: none.
pub(crate) fn drift_interval(raw: RawDrift) -> Result<Duration, ConfigError> {
    if raw.interval_secs > 86_400 {
        let reason = format!(
            "{}: at most 86400 (a day); 0 turns the checks off",
            raw.interval_secs
        );
        return Err(invalid("drift.interval_secs", reason));
    }
    Ok(Duration::from_secs(raw.interval_secs))
}

#[cfg(test)]
#[path = "webhooks_tests.rs"]
mod tests;

/// One `[[webhooks]]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWebhook {
    pub url: String,
    /// Absent: every event.
    pub events: Option<Vec<String>>,
    /// Required (checked with the others, naming the key).
    pub secret_file: Option<PathBuf>,
    /// A PEM bundle of the CA that issued the receiver's certificate, trusted beside the web
    /// roots and the system's (for a receiver behind a company CA). Absent or empty: none.
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWebhookDelivery {
    pub source: String,
    pub timeout_secs: u64,
    pub retry_first_secs: u64,
    pub retry_max_secs: u64,
    pub give_up_hours: u64,
    pub retention_days: u64,
    /// Also sign with the deprecated body-only `X-Repo-Console-Signature` (replayable).
    pub deprecated_signature: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDrift {
    pub interval_secs: u64,
}
