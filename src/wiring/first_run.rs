//! What start-up warns about: a console that names nobody (no `[identity]`, so every request
//! is the placeholder operator) and listens beyond the loopback interface lets anyone who
//! reaches its port deploy.

use std::net::SocketAddr;

use crate::wiring::config::settings::Config;
use crate::wiring::sections::identity::IdentitySettings;

/// The warning for this configuration, if any.
pub fn open_to_anyone(listen: SocketAddr, identity: &IdentitySettings) -> Option<String> {
    if listen.ip().is_loopback() || *identity != IdentitySettings::Fixed {
        return None;
    }
    Some(format!(
        "no [identity] is configured and the console listens on {listen}, beyond loopback: \
         anyone who reaches this port deploys as \"operator\". Put it behind an \
         authenticating proxy and set identity.header and identity.trusted_proxies, or \
         listen on 127.0.0.1"
    ))
}

pub fn warn_when_open(config: &Config) {
    if let Some(warning) = open_to_anyone(config.listen, &config.identity) {
        tracing::warn!("{warning}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy() -> IdentitySettings {
        IdentitySettings::ProxyHeader {
            header: "x-remote-user".into(),
            groups_header: None,
            trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
            matching: crate::domain::identity::CaseMatching::default(),
        }
    }

    #[test]
    fn listening_beyond_loopback_without_identity_is_warned_about() {
        let warning = open_to_anyone("0.0.0.0:8080".parse().unwrap(), &IdentitySettings::Fixed);
        let warning = warning.expect("a warning");
        assert!(warning.contains("0.0.0.0:8080"), "{warning}");
        assert!(warning.contains("deploys as \"operator\""), "{warning}");
    }

    #[test]
    fn loopback_or_a_configured_identity_is_not_warned_about() {
        let loopback = "127.0.0.1:8080".parse().unwrap();
        assert_eq!(open_to_anyone(loopback, &IdentitySettings::Fixed), None);
        assert_eq!(
            open_to_anyone("[::1]:8080".parse().unwrap(), &IdentitySettings::Fixed),
            None
        );
        assert_eq!(
            open_to_anyone("0.0.0.0:8080".parse().unwrap(), &proxy()),
            None
        );
    }
}
