//! The addresses the console answers to, and the sites its pages are served from.
//!
//! A page on another site can make a browser send requests to the console's address (DNS
//! rebinding), but it cannot forge the `Host` header: the browser sends the attacker's host
//! name. So a request whose host is not one of the console's own is refused, and a request
//! that changes something must come from one of the console's own origins (scheme, host, port).

use std::net::SocketAddr;

/// How a site is reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Http,
    Https,
}

impl Scheme {
    fn default_port(self) -> u16 {
        match self {
            Self::Http => 80,
            Self::Https => 443,
        }
    }
}

/// A host and an optional port, as in a `Host` header (`c.example`, `c.example:8080`,
/// `[::1]:8080`). The host is kept in lower case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authority {
    host: String,
    port: Option<u16>,
}

impl Authority {
    /// `None` for anything that is not a plain host with an optional port.
    pub fn parse(text: &str) -> Option<Self> {
        let forbidden = |c: char| !c.is_ascii_graphic() || "/?#@\\".contains(c);
        if text.is_empty() || text.contains(forbidden) {
            return None;
        }
        let (host, port) = match text.rsplit_once(':') {
            Some((host, port)) if !host.starts_with('[') || host.ends_with(']') => {
                (host, Some(port.parse::<u16>().ok()?))
            }
            _ => (text, None),
        };
        let bracketed = host.starts_with('[') && host.ends_with(']');
        if host.is_empty() || (host.contains(':') && !bracketed) {
            return None;
        }
        Some(Self {
            host: host.to_ascii_lowercase(),
            port,
        })
    }

    /// Shortened for messages (the text comes from the request).
    pub fn shown(&self) -> String {
        let text = match self.port {
            Some(port) => format!("{}:{port}", self.host),
            None => self.host.clone(),
        };
        text.chars().take(80).collect()
    }
}

/// A site as a browser names it in `Origin`: scheme, host and port (explicit or the default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    scheme: Scheme,
    host: String,
    port: u16,
}

impl Site {
    /// Parses an `Origin` value (`http://c.example:8080`); `None` for `null` or anything else.
    pub fn parse_origin(text: &str) -> Option<Self> {
        let (scheme, rest) = split_scheme(text)?;
        Some(Self::at(scheme, &Authority::parse(rest)?))
    }

    /// Parses an entry of `server.allowed_hosts`: `host`, `host:port` or `scheme://host[:port]`
    /// (without a scheme: `http`, what the console itself serves).
    pub fn parse_entry(text: &str) -> Result<Self, String> {
        let (scheme, rest) = split_scheme(text).unwrap_or((Scheme::Http, text));
        let bad = || {
            format!(
                "'{text}' is not a host such as console.example, console.example:8080 or \
                 https://console.example"
            )
        };
        let authority = Authority::parse(rest).ok_or_else(bad)?;
        if authority.host == "*" {
            return Err(format!(
                "'{text}': wildcards are not supported; list each host"
            ));
        }
        Ok(Self::at(scheme, &authority))
    }

    /// The site the console serves when reached as `authority` (plain HTTP).
    pub fn served_at(authority: &Authority) -> Self {
        Self::at(Scheme::Http, authority)
    }

    /// The site reached by `scheme` at `authority` (without a port: the scheme's default).
    fn at(scheme: Scheme, authority: &Authority) -> Self {
        Self {
            scheme,
            host: authority.host.clone(),
            port: authority.port.unwrap_or(scheme.default_port()),
        }
    }

    /// Whether a request naming `authority` in its `Host` was meant for this site (a `Host`
    /// without a port means the scheme's default port).
    fn is_named_by(&self, authority: &Authority) -> bool {
        self.host == authority.host
            && authority.port.unwrap_or(self.scheme.default_port()) == self.port
    }
}

fn split_scheme(text: &str) -> Option<(Scheme, &str)> {
    if let Some(rest) = text.strip_prefix("http://") {
        Some((Scheme::Http, rest))
    } else {
        text.strip_prefix("https://")
            .map(|rest| (Scheme::Https, rest))
    }
}

/// The sites the console answers as: the listen address, `localhost` and `127.0.0.1` on the
/// listen port (plain HTTP), and the operator's `server.allowed_hosts`.
#[derive(Debug, Clone)]
pub struct AllowedHosts(Vec<Site>);

impl AllowedHosts {
    pub fn for_listener(listen: SocketAddr, extra: &[Site]) -> Self {
        let port = Some(listen.port());
        let own = [
            listen.ip().to_string(),
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
        ];
        let own = own.iter().map(|host| {
            let host = match listen {
                SocketAddr::V6(_) if host.contains(':') => format!("[{host}]"),
                _ => host.clone(),
            };
            Site::served_at(&Authority { host, port })
        });
        Self(own.chain(extra.iter().cloned()).collect())
    }

    pub fn admits_host(&self, authority: &Authority) -> bool {
        self.0.iter().any(|site| site.is_named_by(authority))
    }

    pub fn admits_origin(&self, origin: &Site) -> bool {
        self.0.contains(origin)
    }
}

#[cfg(test)]
#[path = "allowed_hosts_tests.rs"]
mod tests;
