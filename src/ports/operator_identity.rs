//! The operator identity port: who sends a request. The console has no login of its own:
//! an adapter decides from the request's identity context (its peer and headers), e.g. the
//! fixed placeholder `operator`, or a header set by an authenticating proxy. Other schemes
//! (a client certificate's subject, OIDC through a proxy) are adapters of this port.

use std::net::IpAddr;

use async_trait::async_trait;

use crate::domain::Operator;

/// What a request says about its sender, in plain terms (no HTTP types).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdentityContext {
    /// The address of the peer that connected (a proxy, when there is one); `None` when unknown.
    pub peer: Option<IpAddr>,
    /// The request's headers whose value is text: (lower-case name, value).
    pub headers: Vec<(String, String)>,
}

impl IdentityContext {
    /// The values of one header (names compare case-insensitively).
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request's sender is not known: changes (deploy, rollback, sync) are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unidentified {
    #[error(
        "the request did not come through the authenticating proxy (its peer address is unknown)"
    )]
    UnknownPeer,
    #[error("the request came from {peer}, which is not one of identity.trusted_proxies")]
    UntrustedPeer { peer: IpAddr },
    #[error("the authenticating proxy sent no {header} header")]
    MissingHeader { header: String },
    #[error("the {header} header is not usable: {reason}")]
    Unusable { header: String, reason: String },
    /// An API client sent no credentials the console accepts.
    #[error("send a token: Authorization: Bearer <token> ([[api.tokens]] in the console's configuration)")]
    NoToken,
    /// An API client's bearer token is none of the configured ones.
    #[error("the bearer token is not one of the console's API tokens")]
    BadToken,
}

#[async_trait]
pub trait OperatorIdentity: Send + Sync {
    /// Who sent the request with this context, or why that is not known.
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified>;
}
