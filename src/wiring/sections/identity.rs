//! The `[identity]` table: which `OperatorIdentity` adapter answers "who sends this request".

use std::sync::Arc;

use axum::http::HeaderName;
use ipnet::IpNet;

use crate::adapters::identity::fixed::FixedOperator;
use crate::adapters::identity::proxy_header::TrustedProxyHeader;
use crate::ports::OperatorIdentity;

use crate::wiring::config::error::{invalid, ConfigError};

/// The `[identity]` table as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIdentity {
    pub header: String,
    pub groups_header: String,
    pub trusted_proxies: Vec<String>,
}

/// How requests are identified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdentitySettings {
    /// Everyone is the placeholder `operator`.
    Fixed,
    /// The operator is named by `header`, believed from `trusted_proxies` only.
    ProxyHeader {
        header: String,
        /// The header naming the operator's groups, when configured.
        groups_header: Option<String>,
        trusted_proxies: Vec<IpNet>,
    },
}

impl IdentitySettings {
    /// The adapter these settings name.
    pub fn adapter(&self) -> Arc<dyn OperatorIdentity> {
        match self {
            Self::Fixed => Arc::new(FixedOperator::default()),
            Self::ProxyHeader {
                header,
                groups_header,
                trusted_proxies,
            } => {
                let adapter = TrustedProxyHeader::new(header, trusted_proxies.clone());
                match groups_header {
                    Some(groups) => Arc::new(adapter.with_groups(groups)),
                    None => Arc::new(adapter),
                }
            }
        }
    }
}

/// Checks the `[identity]` table: a valid header name, and parseable proxies when it is set.
pub(crate) fn validate(raw: RawIdentity) -> Result<IdentitySettings, ConfigError> {
    let header = raw.header.trim();
    let groups_header = raw.groups_header.trim();
    if header.is_empty() {
        if !groups_header.is_empty() {
            let reason = "groups are believed only with the user's header: set identity.header too"
                .to_owned();
            return Err(invalid("identity.groups_header", reason));
        }
        return Ok(IdentitySettings::Fixed);
    }
    if !groups_header.is_empty() && HeaderName::from_bytes(groups_header.as_bytes()).is_err() {
        let reason =
            format!("'{groups_header}' is not an HTTP header name such as X-Remote-Groups");
        return Err(invalid("identity.groups_header", reason));
    }
    if HeaderName::from_bytes(header.as_bytes()).is_err() {
        let reason = format!("'{header}' is not an HTTP header name such as X-Remote-User");
        return Err(invalid("identity.header", reason));
    }
    let trusted_proxies = raw
        .trusted_proxies
        .iter()
        .map(|text| proxy(text))
        .collect::<Result<Vec<_>, _>>()?;
    if trusted_proxies.is_empty() {
        let reason = "identity.header is set, so name the proxies that set it (e.g. [\"10.0.0.5\"]); without any, nobody could deploy".to_owned();
        return Err(invalid("identity.trusted_proxies", reason));
    }
    Ok(IdentitySettings::ProxyHeader {
        header: header.to_owned(),
        groups_header: (!groups_header.is_empty()).then(|| groups_header.to_owned()),
        trusted_proxies,
    })
}

/// A CIDR block, or one address (a block of one).
fn proxy(text: &str) -> Result<IpNet, ConfigError> {
    let text = text.trim();
    text.parse::<IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(IpNet::from))
        .map_err(|_| {
            let reason = format!("'{text}' is not an address or a CIDR block such as 10.0.0.0/8");
            invalid("identity.trusted_proxies", reason)
        })
}
