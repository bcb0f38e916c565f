//! The operator identity port: who sends a request. An adapter decides from the request's
//! identity context (its peer and headers), e.g. the fixed placeholder `operator`, a header
//! set by an authenticating proxy, or the session cookie of an OIDC sign-in. Other schemes
//! (a client certificate's subject) are adapters of this port.

use std::net::IpAddr;

use async_trait::async_trait;

use crate::domain::identity::Operator;

impl Unidentified {
    /// `problem` with header `header` as a reason not to identify anyone.
    pub fn header(header: &str, problem: HeaderProblem) -> Self {
        let header = header.to_owned();
        match problem {
            HeaderProblem::Repeated => Self::RepeatedHeader { header },
            HeaderProblem::NotUtf8 => Self::NotUtf8 { header },
        }
    }
}

/// What a request says about its sender, in plain terms (no HTTP types).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdentityContext {
    /// The address of the peer that connected (a proxy, when there is one); `None` when unknown.
    pub peer: Option<IpAddr>,
    /// The request's headers as sent: (lower-case name, the value's bytes). Each value is
    /// kept, whatever its bytes, so that a second one or one that is not UTF-8 is refused
    /// rather than dropped.
    pub headers: Vec<(String, Vec<u8>)>,
}

/// Why an identity header cannot be read as one text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderProblem {
    /// Sent more than once (a proxy that appends instead of replacing would let the client
    /// choose).
    Repeated,
    NotUtf8,
}

impl IdentityContext {
    /// With one more header `name: value` (for tests and adapters building a context).
    pub fn with_header(mut self, name: &str, value: impl Into<Vec<u8>>) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.into()));
        self
    }

    /// The values of one header, as sent (names compare case-insensitively).
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice())
    }

    /// The one value of header `name` decoded as UTF-8 (`None`: not sent), or why it has
    /// none.
    pub fn single_text(&self, name: &str) -> Result<Option<&str>, HeaderProblem> {
        let mut values = self
            .headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_slice());
        let Some(first) = values.next() else {
            return Ok(None);
        };
        if values.next().is_some() {
            return Err(HeaderProblem::Repeated);
        }
        std::str::from_utf8(first)
            .map(Some)
            .map_err(|_| HeaderProblem::NotUtf8)
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
    /// A header that must hold one value was sent more than once.
    #[error(
        "the {header} header was sent more than once: it must hold exactly one value (is the \
         authenticating proxy appending it instead of replacing it?)"
    )]
    RepeatedHeader { header: String },
    #[error("the {header} header is not valid UTF-8: send the name encoded as UTF-8")]
    NotUtf8 { header: String },
    /// An API token past its `expires`.
    #[error("the API token '{name}' expired at {expired} ([[api.tokens]] expires in the console's configuration)")]
    ExpiredToken { name: String, expired: String },
    /// An API client sent no credentials the console accepts.
    #[error("send a token: Authorization: Bearer <token> ([[api.tokens]] in the console's configuration)")]
    NoToken,
    /// An API client's bearer token is none of the configured ones.
    #[error("the bearer token is not one of the console's API tokens")]
    BadToken,
    /// No session cookie, or one naming no session (OIDC sign-in).
    #[error("you are not signed in: sign in with the company's identity provider")]
    NotSignedIn,
    /// The session the cookie named has ended (`idle`: no request for
    /// `oidc.session_idle_minutes`; `max`: older than `oidc.session_max_hours`).
    #[error("your session ended ({why}): sign in again")]
    SessionEnded { why: String },
    /// The session store could not be read.
    #[error("the sessions cannot be read now ({reason}); try again shortly")]
    SessionsUnreadable { reason: String },
}

#[async_trait]
pub trait OperatorIdentity: Send + Sync {
    /// Who sent the request with this context, or why that is not known.
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified>;
}
