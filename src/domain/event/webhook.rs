//! Webhooks: where events are sent, and which kinds each one wants.

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::event::EventKind;

/// A receiver's address: `http://` or `https://`, a host, then any path and query. Names the
/// webhook in the outbox. Its path and query may hold a token (chat services put one
/// there), so logs show [`WebhookUrl::redacted`] only.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WebhookUrl(String);

/// Why a text is not a webhook's address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a webhook URL: write http:// or https://, a host, then the path, e.g. https://hooks.example.com/repo-console")]
pub struct InvalidWebhookUrl(pub String);

impl WebhookUrl {
    pub fn parse(text: &str) -> Result<Self, InvalidWebhookUrl> {
        let refused = || InvalidWebhookUrl(Self(text.to_owned()).redacted());
        let rest = text
            .strip_prefix("https://")
            .or_else(|| text.strip_prefix("http://"))
            .ok_or_else(refused)?;
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let host = authority.rsplit_once(':').map_or(authority, |(h, _)| h);
        let whitespace = text.chars().any(|c| c.is_whitespace() || c.is_control());
        if host.is_empty() || authority.contains('@') || whitespace || text.contains('#') {
            return Err(refused());
        }
        Ok(Self(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Scheme, host and port, then `/…` when there is more: what logs and messages show.
    pub fn redacted(&self) -> String {
        let (scheme, rest) = self.0.split_once("://").unwrap_or(("", &self.0));
        let cut = rest.find(['/', '?']).unwrap_or(rest.len());
        let more = if cut < rest.len() { "/…" } else { "" };
        let authority = &rest[..cut];
        let host = authority
            .rsplit_once('@')
            .map_or(authority, |(_, host)| host);
        format!("{scheme}://{host}{more}")
    }
}

impl fmt::Debug for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "WebhookUrl({})", self.redacted())
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

/// One webhook and the kinds of event it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub url: WebhookUrl,
    pub events: BTreeSet<EventKind>,
}

/// The webhooks that want events of `kind`.
pub fn subscribers(subscriptions: &[Subscription], kind: EventKind) -> Vec<WebhookUrl> {
    subscriptions
        .iter()
        .filter(|s| s.events.contains(&kind))
        .map(|s| s.url.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_webhook_url_is_http_or_https_with_a_host() {
        for good in [
            "https://hooks.example.com/repo-console",
            "http://127.0.0.1:8099/",
            "https://chat.example.com/hooks/T0/B0/secret?x=1",
            "http://[::1]:9000/in",
        ] {
            assert_eq!(WebhookUrl::parse(good).unwrap().as_str(), good);
        }
        for bad in [
            "",
            "hooks.example.com/x",
            "ftp://example.com/",
            "https:///path",
            "https://user:pw@example.com/",
            "https://example.com/a b",
            "https://example.com/#frag",
        ] {
            assert!(WebhookUrl::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn logs_see_the_host_and_never_the_path_or_query() {
        let url = WebhookUrl::parse("https://chat.example.com/hooks/T0/secret?token=abc").unwrap();
        assert_eq!(url.redacted(), "https://chat.example.com/…");
        assert_eq!(format!("{url} {url:?}").matches("secret").count(), 0);
        let bare = WebhookUrl::parse("http://127.0.0.1:8099").unwrap();
        assert_eq!(bare.redacted(), "http://127.0.0.1:8099");
        let refused = WebhookUrl::parse("https://u:topsecret@example.com/x").unwrap_err();
        assert!(!refused.to_string().contains("topsecret"), "{refused}");
    }

    #[test]
    fn an_event_goes_to_the_webhooks_that_want_its_kind() {
        let hook = |url: &str, kinds: &[EventKind]| Subscription {
            url: WebhookUrl::parse(url).unwrap(),
            events: kinds.iter().copied().collect(),
        };
        let all = [
            hook("https://a.example/", &EventKind::ALL),
            hook("https://b.example/", &[EventKind::DriftDetected]),
        ];
        let urls = |kind| -> Vec<String> {
            subscribers(&all, kind)
                .iter()
                .map(|u| u.as_str().to_owned())
                .collect()
        };
        assert_eq!(urls(EventKind::DeploymentFailed), ["https://a.example/"]);
        assert_eq!(
            urls(EventKind::DriftDetected),
            ["https://a.example/", "https://b.example/"]
        );
        assert!(subscribers(&[], EventKind::SyncFailed).is_empty());
    }
}
