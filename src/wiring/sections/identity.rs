//! The `[identity]` table: which `OperatorIdentity` adapter answers "who sends this request".

use std::sync::Arc;

use axum::http::HeaderName;
use ipnet::IpNet;

use crate::adapters::identity::fixed::FixedOperator;
use crate::adapters::identity::proxy_header::TrustedProxyHeader;
use crate::domain::identity::CaseMatching;
use crate::ports::OperatorIdentity;

use crate::wiring::sections::error::{invalid, ConfigError};
use crate::wiring::sections::oidc::{OidcIdentity, RawOidc};

/// The `[identity]` table as written.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIdentity {
    /// `""` (the placeholder, or the proxy's header when `header` is set), `"header"` or
    /// `"oidc"` (`identity.mode`; its doc is in `config/default.toml`).
    pub mode: String,
    pub header: String,
    pub groups_header: String,
    pub trusted_proxies: Vec<String>,
    /// Compare names of people and groups exactly (after trimming and Unicode NFC) instead
    /// of caselessly (`identity.case_sensitive`; its doc is in `config/default.toml`).
    pub case_sensitive: bool,
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
        /// How the names it sends are compared.
        matching: CaseMatching,
    },
    /// Operators sign in with an OpenID Connect provider (`[oidc]`); the adapter is built
    /// at start, after discovery (`startup.rs`).
    Oidc(Box<OidcIdentity>),
}

impl IdentitySettings {
    /// The adapter these settings name; for OIDC, one that names nobody (the composition
    /// root builds the session cookie's adapter after discovery instead).
    pub fn adapter(&self) -> Arc<dyn OperatorIdentity> {
        match self {
            Self::Fixed => Arc::new(FixedOperator::default()),
            Self::Oidc(_) => Arc::new(crate::adapters::identity::fixed::Nobody),
            Self::ProxyHeader {
                header,
                groups_header,
                trusted_proxies,
                matching,
            } => {
                let adapter = TrustedProxyHeader::new(header, trusted_proxies.clone())
                    .with_matching(*matching);
                match groups_header {
                    Some(groups) => Arc::new(adapter.with_groups(groups)),
                    None => Arc::new(adapter),
                }
            }
        }
    }
}

/// Checks the `[identity]` and `[oidc]` tables: the mode, a valid header name and parseable
/// proxies when it is set, the OIDC provider when that is the mode, and no mix of the two.
pub(crate) fn validate(raw: RawIdentity, oidc: RawOidc) -> Result<IdentitySettings, ConfigError> {
    match raw.mode.trim() {
        "oidc" => {
            for (key, value) in [
                ("identity.header", &raw.header),
                ("identity.groups_header", &raw.groups_header),
            ] {
                if !value.trim().is_empty() {
                    let reason = format!("identity.mode is \"oidc\": operators sign in with the provider, so a proxy's header ('{}') must not also name them; remove it, or set identity.mode = \"header\" and remove [oidc]", value.trim());
                    return Err(invalid(key, reason));
                }
            }
            if !raw.trusted_proxies.is_empty() {
                let reason =
                    "identity.mode is \"oidc\": no proxy names operators, so list none".to_owned();
                return Err(invalid("identity.trusted_proxies", reason));
            }
            let matching = CaseMatching::from_case_sensitive(raw.case_sensitive);
            let oidc = crate::wiring::sections::oidc::validate(oidc, matching)?;
            return Ok(IdentitySettings::Oidc(Box::new(oidc)));
        }
        "" | "header" => {}
        other => {
            let reason = format!("'{other}' is not a mode: \"header\" (the proxy's header), \"oidc\" (sign in with an OpenID Connect provider), or empty (the proxy's header when identity.header is set, else the placeholder operator)");
            return Err(invalid("identity.mode", reason));
        }
    }
    if let Some(key) = oidc.names_a_provider() {
        let reason = format!("{key} is set but identity.mode is not \"oidc\": set identity.mode = \"oidc\" to sign in with that provider, or remove [oidc]");
        return Err(invalid("identity.mode", reason));
    }
    let header = raw.header.trim();
    if raw.mode.trim() == "header" && header.is_empty() {
        let reason =
            "identity.mode is \"header\", so name the proxy's header, e.g. \"X-Remote-User\""
                .to_owned();
        return Err(invalid("identity.header", reason));
    }
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
        matching: CaseMatching::from_case_sensitive(raw.case_sensitive),
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

#[cfg(test)]
mod tests {
    use crate::domain::identity::{CaseMatching, Operator};
    use crate::wiring::config::{load, Overrides};

    /// Whether `ALICE` may synchronize where `[policy] syncers = ["user:alice"]`.
    fn alice_is_alice(overrides: Overrides) -> bool {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(file, "[policy]\nsyncers = [\"user:alice\"]").unwrap();
        let overrides = Overrides {
            config_file: Some(file.path().into()),
            ..overrides
        };
        let config = load(&overrides).unwrap();
        let shouting = Operator::with_matching("ALICE", config.policy.matching()).unwrap();
        config.policy.may_sync(&shouting).is_ok()
    }

    #[test]
    fn names_are_caseless_unless_case_sensitive_is_set_in_any_layer() {
        assert!(alice_is_alice(Overrides::default()));
        let env = Overrides::default().env("REPO_CONSOLE_IDENTITY_CASE_SENSITIVE", "true");
        assert!(!alice_is_alice(env));
        let flag = Overrides::default().flag("identity.case_sensitive", "true");
        assert!(!alice_is_alice(flag));
        let off = Overrides::default().flag("identity.case_sensitive", "false");
        assert!(alice_is_alice(off));
        assert_eq!(
            load(&Overrides::default().flag("identity.case_sensitive", "true"))
                .unwrap()
                .policy
                .matching(),
            CaseMatching::CaseSensitive
        );
    }
}
