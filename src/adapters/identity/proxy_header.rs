//! `TrustedProxyHeader`: the operator named by a header (e.g. `X-Remote-User`) that an
//! authenticating proxy sets, believed only when the request's peer is one of the trusted
//! proxies (anyone else could set the header themselves).

use async_trait::async_trait;
use ipnet::IpNet;

use crate::domain::identity::{CaseMatching, GroupName, Operator};
use crate::ports::{IdentityContext, OperatorIdentity, Unidentified};

pub struct TrustedProxyHeader {
    header: String,
    /// The header naming the operator's groups (comma separated), when there is one.
    groups_header: Option<String>,
    trusted: Vec<IpNet>,
    /// How names and groups are compared (`identity.case_sensitive`).
    matching: CaseMatching,
}

impl TrustedProxyHeader {
    /// Believes `header` from peers within `trusted`.
    pub fn new(header: &str, trusted: Vec<IpNet>) -> Self {
        Self {
            header: header.to_owned(),
            groups_header: None,
            trusted,
            matching: CaseMatching::default(),
        }
    }

    /// Believes `groups_header` too (one value: groups separated by commas), from the same
    /// peers.
    pub fn with_groups(mut self, groups_header: &str) -> Self {
        self.groups_header = Some(groups_header.to_owned());
        self
    }

    /// Names and groups compared under `matching`.
    pub fn with_matching(mut self, matching: CaseMatching) -> Self {
        self.matching = matching;
        self
    }

    fn trusts(&self, peer: std::net::IpAddr) -> bool {
        // An IPv4 peer may arrive as an IPv4-mapped IPv6 address on a dual-stack socket.
        let peer = peer.to_canonical();
        self.trusted.iter().any(|net| net.contains(&peer))
    }

    /// The groups of the groups header's one value: comma separated, surrounding spaces
    /// trimmed, empty items ignored; an item that is no group name refuses the request.
    fn groups(&self, context: &IdentityContext) -> Result<Vec<String>, Unidentified> {
        let Some(header) = self.groups_header.as_deref() else {
            return Ok(Vec::new());
        };
        let value = context
            .single_text(header)
            .map_err(|problem| Unidentified::header(header, problem))?;
        let items = value.into_iter().flat_map(|v| v.split(','));
        items
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| {
                GroupName::new(item, self.matching)
                    .map(|g| g.as_str().to_owned())
                    .map_err(|e| Unidentified::Unusable {
                        header: header.to_owned(),
                        reason: format!("the group '{}': {e}", item.escape_debug()),
                    })
            })
            .collect()
    }
}

#[async_trait]
impl OperatorIdentity for TrustedProxyHeader {
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified> {
        let peer = context.peer.ok_or(Unidentified::UnknownPeer)?;
        if !self.trusts(peer) {
            return Err(Unidentified::UntrustedPeer { peer });
        }
        let value = context
            .single_text(&self.header)
            .map_err(|problem| Unidentified::header(&self.header, problem))?
            .ok_or_else(|| Unidentified::MissingHeader {
                header: self.header.clone(),
            })?;
        let operator =
            Operator::with_matching(value, self.matching).map_err(|e| Unidentified::Unusable {
                header: self.header.clone(),
                reason: e.to_string(),
            })?;
        Ok(operator.with_groups(self.groups(context)?))
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
                .map(|(n, v)| (n.to_ascii_lowercase(), v.as_bytes().to_vec()))
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
                ("X-Remote-Groups", " release, ops,,Release , sre"),
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
            Err(Unidentified::RepeatedHeader { .. })
        ));
        let empty = a.identify(&context("::1", &[("x-remote-user", " ")])).await;
        assert!(matches!(empty, Err(Unidentified::Unusable { .. })));
    }

    #[tokio::test]
    async fn a_second_groups_value_is_refused_not_merged() {
        let a = adapter().with_groups("X-Remote-Groups");
        let sent = context(
            "10.0.0.9",
            &[
                ("x-remote-user", "carol"),
                ("x-remote-groups", "dev"),
                ("x-remote-groups", "ops"),
            ],
        );
        let refused = a.identify(&sent).await.unwrap_err();
        assert_eq!(
            refused,
            Unidentified::RepeatedHeader {
                header: "X-Remote-Groups".into()
            }
        );
        assert!(refused.to_string().contains("more than once"), "{refused}");
    }

    #[tokio::test]
    async fn a_utf8_name_is_read_and_other_bytes_are_refused_saying_so() {
        let a = adapter().with_groups("X-Remote-Groups");
        let zoe = context("::1", &[("x-remote-user", "zoë")]);
        assert_eq!(a.identify(&zoe).await.unwrap().as_str(), "zoë");
        let latin1 = IdentityContext {
            peer: Some("::1".parse().unwrap()),
            headers: Vec::new(),
        }
        .with_header("x-remote-user", b"zo\xeb".to_vec());
        let refused = a.identify(&latin1).await.unwrap_err();
        assert!(
            matches!(refused, Unidentified::NotUtf8 { .. }),
            "{refused:?}"
        );
        assert!(refused.to_string().contains("not valid UTF-8"), "{refused}");
        let bad_groups = context("::1", &[("x-remote-user", "zoë")])
            .with_header("x-remote-groups", b"dev,\xff".to_vec());
        let refused = a.identify(&bad_groups).await.unwrap_err();
        assert!(
            matches!(refused, Unidentified::NotUtf8 { .. }),
            "{refused:?}"
        );
        let control = context(
            "::1",
            &[("x-remote-user", "zoë"), ("x-remote-groups", "dev,a\u{7}b")],
        );
        assert!(matches!(
            a.identify(&control).await,
            Err(Unidentified::Unusable { .. })
        ));
    }

    #[tokio::test]
    async fn names_are_compared_caselessly_unless_case_sensitive() {
        let who = |a: &TrustedProxyHeader, name: &str| {
            let context = context("::1", &[("x-remote-user", name)]);
            futures::executor::block_on(a.identify(&context)).unwrap()
        };
        let caseless = adapter();
        assert_eq!(
            who(&caseless, "ALICE").person(),
            who(&caseless, "alice").person()
        );
        let exact = adapter().with_matching(CaseMatching::CaseSensitive);
        assert_ne!(who(&exact, "ALICE").person(), who(&exact, "alice").person());
    }
}
