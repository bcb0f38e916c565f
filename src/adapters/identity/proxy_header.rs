//! `TrustedProxyHeader`: the operator named by a header (e.g. `X-Remote-User`) that an
//! authenticating proxy sets, believed only when the request's peer is one of the trusted
//! proxies (anyone else could set the header themselves).

use async_trait::async_trait;
use ipnet::IpNet;

use crate::domain::Operator;
use crate::ports::{IdentityContext, OperatorIdentity, Unidentified};

pub struct TrustedProxyHeader {
    header: String,
    /// The header naming the operator's groups (comma separated), when there is one.
    groups_header: Option<String>,
    trusted: Vec<IpNet>,
}

impl TrustedProxyHeader {
    /// Believes `header` from peers within `trusted`.
    pub fn new(header: &str, trusted: Vec<IpNet>) -> Self {
        Self {
            header: header.to_owned(),
            groups_header: None,
            trusted,
        }
    }

    /// Believes `groups_header` too (comma-separated groups; every value of the header is
    /// read), from the same peers.
    pub fn with_groups(mut self, groups_header: &str) -> Self {
        self.groups_header = Some(groups_header.to_owned());
        self
    }

    fn trusts(&self, peer: std::net::IpAddr) -> bool {
        // An IPv4 peer may arrive as an IPv4-mapped IPv6 address on a dual-stack socket.
        let peer = peer.to_canonical();
        self.trusted.iter().any(|net| net.contains(&peer))
    }
}

#[async_trait]
impl OperatorIdentity for TrustedProxyHeader {
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified> {
        let peer = context.peer.ok_or(Unidentified::UnknownPeer)?;
        if !self.trusts(peer) {
            return Err(Unidentified::UntrustedPeer { peer });
        }
        let unusable = |reason: &str| Unidentified::Unusable {
            header: self.header.clone(),
            reason: reason.to_owned(),
        };
        let mut values = context.header_values(&self.header);
        let value = values.next().ok_or_else(|| Unidentified::MissingHeader {
            header: self.header.clone(),
        })?;
        if values.next().is_some() {
            return Err(unusable("it was sent more than once"));
        }
        let operator = Operator::new(value).map_err(|e| unusable(&e.to_string()))?;
        let groups = self
            .groups_header
            .as_deref()
            .map_or_else(Vec::new, |header| {
                context
                    .header_values(header)
                    .flat_map(|v| v.split(','))
                    .map(str::to_owned)
                    .collect()
            });
        Ok(operator.with_groups(groups))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter() -> TrustedProxyHeader {
        let trusted = vec!["10.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()];
        TrustedProxyHeader::new("X-Remote-User", trusted)
    }

    fn context(peer: &str, headers: &[(&str, &str)]) -> IdentityContext {
        IdentityContext {
            peer: Some(peer.parse().unwrap()),
            headers: headers
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[tokio::test]
    async fn the_header_is_believed_from_a_trusted_proxy_only() {
        let a = adapter();
        let who = |peer: &'static str, name: &'static str| {
            let context = context(peer, &[("X-REMOTE-USER", name)]);
            let a = &a;
            async move { a.identify(&context).await }
        };
        assert_eq!(who("10.1.2.3", "alice").await.unwrap().as_str(), "alice");
        assert_eq!(who("::ffff:10.0.0.1", "bob").await.unwrap().as_str(), "bob");
        assert!(matches!(
            who("192.168.1.5", "alice").await,
            Err(Unidentified::UntrustedPeer { .. })
        ));
        let unknown = IdentityContext::default();
        assert_eq!(a.identify(&unknown).await, Err(Unidentified::UnknownPeer));
    }

    #[tokio::test]
    async fn groups_come_from_their_header_from_the_same_trusted_proxies() {
        let a = adapter().with_groups("X-Remote-Groups");
        let sent = context(
            "10.0.0.9",
            &[
                ("x-remote-user", "alice"),
                ("X-Remote-Groups", "release, ops,,release"),
                ("x-remote-groups", "sre"),
            ],
        );
        let alice = a.identify(&sent).await.unwrap();
        assert_eq!(alice.groups(), ["ops", "release", "sre"]);
        let none = a
            .identify(&context("10.0.0.9", &[("x-remote-user", "bob")]))
            .await
            .unwrap();
        assert!(none.groups().is_empty());
        let without = adapter().identify(&sent).await.unwrap();
        assert!(without.groups().is_empty(), "no groups header configured");
    }

    #[tokio::test]
    async fn a_missing_repeated_or_empty_header_identifies_nobody() {
        let a = adapter();
        let missing = a.identify(&context("::1", &[])).await;
        assert!(matches!(missing, Err(Unidentified::MissingHeader { .. })));
        let twice = context("::1", &[("x-remote-user", "a"), ("x-remote-user", "b")]);
        assert!(matches!(
            a.identify(&twice).await,
            Err(Unidentified::Unusable { .. })
        ));
        let empty = a.identify(&context("::1", &[("x-remote-user", " ")])).await;
        assert!(matches!(empty, Err(Unidentified::Unusable { .. })));
    }
}
