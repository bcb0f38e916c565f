//! The `[oidc]` table (with `[identity] mode = "oidc"`): the provider, this console as its
//! client, the claims read, and the sessions' lifetimes. Checked at start, each refusal
//! naming its key: the issuer and the redirect URL over https except on a loopback
//! address, the client secret read from its file, `openid` among the scopes, the callback
//! at `/oidc/callback`, lifetimes within bounds. Discovery itself is made at start by
//! `startup.rs` (a failure names `oidc.issuer`).

use std::net::IpAddr;
use std::path::PathBuf;

use chrono::Duration;

use crate::adapters::identity::oidc::provider::OidcSettings;
use crate::app::sign_in::CookieRules;
use crate::domain::identity::session::SessionLifetimes;
use crate::domain::identity::CaseMatching;
use crate::wiring::sections::error::{invalid, ConfigError};

/// The path the console serves the provider's answer at.
pub const CALLBACK_PATH: &str = "/oidc/callback";

/// The `[oidc]` table as written (each key's doc is in `config/default.toml`).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOidc {
    pub issuer: String,
    pub client_id: String,
    pub client_secret_file: PathBuf,
    pub scopes: Vec<String>,
    pub username_claim: String,
    pub groups_claim: String,
    pub redirect_url: String,
    pub session_idle_minutes: i64,
    pub session_max_hours: i64,
}

impl RawOidc {
    /// Whether any key naming a provider is set (a sign of OIDC meant without the mode).
    pub fn names_a_provider(&self) -> Option<&'static str> {
        if !self.issuer.trim().is_empty() {
            Some("oidc.issuer")
        } else if !self.client_id.trim().is_empty() {
            Some("oidc.client_id")
        } else if !self.redirect_url.trim().is_empty() {
            Some("oidc.redirect_url")
        } else {
            None
        }
    }
}

/// Signing in with an OIDC provider, as configured.
#[derive(Clone, PartialEq, Eq)]
pub struct OidcIdentity {
    pub provider: OidcSettings,
    pub lifetimes: SessionLifetimes,
    pub matching: CaseMatching,
    pub cookies: CookieRules,
    /// This console's signed-out page, where the provider sends a browser back after its
    /// own sign-out.
    pub after_sign_out: String,
}

impl std::fmt::Debug for OidcIdentity {
    /// Everything but the client secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcIdentity")
            .field("issuer", &self.provider.issuer)
            .field("client_id", &self.provider.client_id)
            .field("scopes", &self.provider.scopes)
            .field("username_claim", &self.provider.username_claim)
            .field("groups_claim", &self.provider.groups_claim)
            .field("redirect_url", &self.provider.redirect_url)
            .field("lifetimes", &self.lifetimes)
            .field("cookies", &self.cookies)
            .finish_non_exhaustive()
    }
}

/// Checks the `[oidc]` table for `mode = "oidc"`.
pub(crate) fn validate(raw: RawOidc, matching: CaseMatching) -> Result<OidcIdentity, ConfigError> {
    let issuer = required(
        "oidc.issuer",
        &raw.issuer,
        "the provider's issuer URL, e.g. \"https://keycloak.example/realms/company\"",
    )?;
    let issuer_url = https_unless_loopback("oidc.issuer", &issuer)?;
    if issuer_url.query().is_some() || issuer_url.fragment().is_some() {
        let reason = format!("'{issuer}' has a query or fragment: an issuer has neither");
        return Err(invalid("oidc.issuer", reason));
    }
    let client_id = required(
        "oidc.client_id",
        &raw.client_id,
        "the client id registered at the provider for this console",
    )?;
    let client_secret = client_secret(&raw.client_secret_file)?;
    let scopes: Vec<String> = raw
        .scopes
        .iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect();
    if !scopes.iter().any(|s| s == "openid") {
        let reason =
            format!("{scopes:?} lacks \"openid\": without it the provider sends no ID token");
        return Err(invalid("oidc.scopes", reason));
    }
    let username_claim = required(
        "oidc.username_claim",
        &raw.username_claim,
        "the claim naming the operator, e.g. \"preferred_username\"",
    )?;
    let groups_claim = required(
        "oidc.groups_claim",
        &raw.groups_claim,
        "the claim listing the operator's groups, e.g. \"groups\"",
    )?;
    let redirect = required("oidc.redirect_url", &raw.redirect_url, "this console's callback as the browser reaches it, e.g. \"https://console.example/oidc/callback\"")?;
    let redirect_url = https_unless_loopback("oidc.redirect_url", &redirect)?;
    if redirect_url.path() != CALLBACK_PATH || redirect_url.query().is_some() {
        let reason = format!(
            "'{redirect}' must end in the console's callback path {CALLBACK_PATH}, with no query"
        );
        return Err(invalid("oidc.redirect_url", reason));
    }
    let idle = within(
        "oidc.session_idle_minutes",
        raw.session_idle_minutes,
        1,
        1440,
    )?;
    let max = within("oidc.session_max_hours", raw.session_max_hours, 1, 720)?;
    let lifetimes = SessionLifetimes {
        idle: Duration::minutes(idle),
        max: Duration::hours(max),
    };
    if lifetimes.idle > lifetimes.max {
        let reason = format!("{idle} minutes is longer than oidc.session_max_hours ({max} hours)");
        return Err(invalid("oidc.session_idle_minutes", reason));
    }
    let secure = redirect_url.scheme() == "https";
    let mut after = redirect_url.clone();
    after.set_path("/oidc/signed-out");
    Ok(OidcIdentity {
        provider: OidcSettings {
            issuer,
            client_id,
            client_secret,
            scopes,
            username_claim,
            groups_claim,
            redirect_url: redirect,
        },
        lifetimes,
        matching,
        cookies: CookieRules { secure },
        after_sign_out: after.to_string(),
    })
}

fn required(key: &'static str, value: &str, what: &str) -> Result<String, ConfigError> {
    let value = value.trim();
    if value.is_empty() {
        let reason = format!("identity.mode is \"oidc\", so set {key}: {what}");
        return Err(invalid(key, reason));
    }
    Ok(value.to_owned())
}

/// `text` as an https URL, or an http one whose host is a loopback address (a test
/// provider, a console on the operator's machine).
fn https_unless_loopback(key: &'static str, text: &str) -> Result<url::Url, ConfigError> {
    let url = url::Url::parse(text)
        .map_err(|e| invalid(key, format!("'{text}' is not an absolute URL: {e}")))?;
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    match url.scheme() {
        "https" => Ok(url),
        "http" if loopback => Ok(url),
        "http" => Err(invalid(
            key,
            format!(
                "'{text}' is plain http: use https (http is allowed on a loopback address only)"
            ),
        )),
        other => Err(invalid(
            key,
            format!("'{text}' is a {other}: URL, not https"),
        )),
    }
}

fn client_secret(path: &std::path::Path) -> Result<String, ConfigError> {
    let key = "oidc.client_secret_file";
    if path.as_os_str().is_empty() {
        let reason = "identity.mode is \"oidc\", so name the file holding the client secret (its first line)".to_owned();
        return Err(invalid(key, reason));
    }
    let secret = crate::wiring::sections::password_file::first_line(path)
        .map_err(|e| invalid(key, format!("{} cannot be read: {e}", path.display())))?;
    if secret.trim().is_empty() {
        return Err(invalid(
            key,
            format!(
                "{} is empty: its first line is the client secret",
                path.display()
            ),
        ));
    }
    Ok(secret)
}

fn within(key: &'static str, value: i64, least: i64, most: i64) -> Result<i64, ConfigError> {
    if (least..=most).contains(&value) {
        Ok(value)
    } else {
        Err(invalid(
            key,
            format!("{value} is not between {least} and {most}"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::wiring::config::{load, Overrides};
    use crate::wiring::sections::identity::IdentitySettings;

    /// A client secret file, and the flags of a whole OIDC configuration using it.
    fn secret() -> tempfile::NamedTempFile {
        use std::io::Write;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        writeln!(file, "s3cret").unwrap();
        file
    }

    fn whole(secret: &tempfile::NamedTempFile) -> Overrides {
        Overrides::default()
            .flag("identity.mode", "oidc")
            .flag("oidc.issuer", "https://keycloak.example/realms/company")
            .flag("oidc.client_id", "repo-console")
            .flag("oidc.client_secret_file", secret.path().to_str().unwrap())
            .flag("oidc.redirect_url", "https://console.example/oidc/callback")
    }

    /// The key a refused configuration names.
    fn refused_key(overrides: Overrides) -> String {
        let error = load(&overrides).expect_err("refused").to_string();
        error
            .strip_prefix("configuration key ")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or(&error)
            .to_owned()
    }

    #[test]
    fn a_whole_oidc_configuration_is_read_from_flags_and_the_environment() {
        let secret = secret();
        let config = load(&whole(&secret)).unwrap();
        let IdentitySettings::Oidc(oidc) = config.identity else {
            panic!("OIDC");
        };
        assert_eq!(oidc.provider.client_secret, "s3cret");
        assert_eq!(oidc.provider.scopes, ["openid", "profile", "email"]);
        assert_eq!(oidc.provider.username_claim, "preferred_username");
        assert_eq!(oidc.provider.groups_claim, "groups");
        assert!(oidc.cookies.secure, "https: Secure, __Host-");
        assert_eq!(
            oidc.after_sign_out,
            "https://console.example/oidc/signed-out"
        );
        assert_eq!(oidc.lifetimes.idle, chrono::Duration::minutes(30));
        assert_eq!(oidc.lifetimes.max, chrono::Duration::hours(8));
        assert!(
            !format!("{oidc:?}").contains("s3cret"),
            "the secret is never shown"
        );
        let env = oidc_env(&secret)
            .env("REPO_CONSOLE_OIDC_SESSION_IDLE_MINUTES", "5")
            .env("REPO_CONSOLE_OIDC_GROUPS_CLAIM", "roles");
        let IdentitySettings::Oidc(oidc) = load(&env).unwrap().identity else {
            panic!("OIDC from the environment");
        };
        assert_eq!(oidc.lifetimes.idle, chrono::Duration::minutes(5));
        assert_eq!(oidc.provider.groups_claim, "roles");
        let loopback = whole(&secret)
            .flag("oidc.issuer", "http://127.0.0.1:9400")
            .flag("oidc.redirect_url", "http://localhost:8080/oidc/callback");
        let IdentitySettings::Oidc(oidc) = load(&loopback).unwrap().identity else {
            panic!("OIDC on loopback");
        };
        assert!(!oidc.cookies.secure, "plain http on loopback: no Secure");
    }

    fn oidc_env(secret: &tempfile::NamedTempFile) -> Overrides {
        Overrides::default()
            .env("REPO_CONSOLE_IDENTITY_MODE", "oidc")
            .env("REPO_CONSOLE_OIDC_ISSUER", "https://login.example")
            .env("REPO_CONSOLE_OIDC_CLIENT_ID", "repo-console")
            .env(
                "REPO_CONSOLE_OIDC_CLIENT_SECRET_FILE",
                secret.path().to_str().unwrap(),
            )
            .env(
                "REPO_CONSOLE_OIDC_REDIRECT_URL",
                "https://console.example/oidc/callback",
            )
    }

    #[test]
    fn each_refusal_names_its_key() {
        let secret = secret();
        let cases = [
            (whole(&secret).flag("oidc.issuer", ""), "oidc.issuer"),
            (
                whole(&secret).flag("oidc.issuer", "http://keycloak.example"),
                "oidc.issuer",
            ),
            (
                whole(&secret).flag("oidc.issuer", "not a url"),
                "oidc.issuer",
            ),
            (whole(&secret).flag("oidc.client_id", " "), "oidc.client_id"),
            (
                whole(&secret).flag("oidc.client_secret_file", ""),
                "oidc.client_secret_file",
            ),
            (
                whole(&secret).flag("oidc.client_secret_file", "/nonexistent/secret"),
                "oidc.client_secret_file",
            ),
            (
                whole(&secret).flag("oidc.scopes", "profile,email"),
                "oidc.scopes",
            ),
            (
                whole(&secret).flag("oidc.redirect_url", "http://console.example/oidc/callback"),
                "oidc.redirect_url",
            ),
            (
                whole(&secret).flag("oidc.redirect_url", "https://console.example/callback"),
                "oidc.redirect_url",
            ),
            (
                whole(&secret).flag("oidc.username_claim", ""),
                "oidc.username_claim",
            ),
            (
                whole(&secret).flag("oidc.session_idle_minutes", "0"),
                "oidc.session_idle_minutes",
            ),
            (
                whole(&secret).flag("oidc.session_max_hours", "721"),
                "oidc.session_max_hours",
            ),
            (
                whole(&secret)
                    .flag("oidc.session_idle_minutes", "120")
                    .flag("oidc.session_max_hours", "1"),
                "oidc.session_idle_minutes",
            ),
            (whole(&secret).flag("identity.mode", "sso"), "identity.mode"),
        ];
        for (overrides, key) in cases {
            assert_eq!(refused_key(overrides), key);
        }
    }

    #[test]
    fn a_mix_of_the_proxys_headers_and_oidc_is_refused_at_start() {
        let secret = secret();
        let with_header = whole(&secret).flag("identity.header", "X-Remote-User");
        assert_eq!(refused_key(with_header), "identity.header");
        let with_groups = whole(&secret).flag("identity.groups_header", "X-Remote-Groups");
        assert_eq!(refused_key(with_groups), "identity.groups_header");
        let with_proxies = whole(&secret).flag("identity.trusted_proxies", "10.0.0.1");
        assert_eq!(refused_key(with_proxies), "identity.trusted_proxies");
        let provider_without_mode = whole(&secret).flag("identity.mode", "");
        assert_eq!(refused_key(provider_without_mode), "identity.mode");
        let header_mode_with_provider = whole(&secret)
            .flag("identity.mode", "header")
            .flag("identity.header", "X-Remote-User")
            .flag("identity.trusted_proxies", "10.0.0.1");
        assert_eq!(refused_key(header_mode_with_provider), "identity.mode");
        let header_mode_without_header = Overrides::default().flag("identity.mode", "header");
        assert_eq!(refused_key(header_mode_without_header), "identity.header");
        let header = Overrides::default()
            .flag("identity.mode", "header")
            .flag("identity.header", "X-Remote-User")
            .flag("identity.trusted_proxies", "10.0.0.1");
        assert!(matches!(
            load(&header).unwrap().identity,
            IdentitySettings::ProxyHeader { .. }
        ));
    }
}
