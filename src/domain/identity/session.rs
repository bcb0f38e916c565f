//! A signed-in session's rules: how long it lives (idle and absolute lifetimes), when its
//! last use is worth writing down again, and the page a sign-in may come back to (a path
//! of this site only: never another site, so that the login is no open redirect).

use chrono::{DateTime, Duration, Utc};

/// How long a session lives: ended after `idle` without a request, and after `max` whatever
/// happens (`oidc.session_idle_minutes`, `oidc.session_max_hours`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionLifetimes {
    pub idle: Duration,
    pub max: Duration,
}

/// Why a session no longer names anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionEnd {
    /// No request came for longer than the idle lifetime.
    Idle,
    /// Older than the absolute lifetime.
    Max,
}

impl SessionEnd {
    /// The word the audit lines and the metrics use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Max => "max",
        }
    }
}

impl SessionLifetimes {
    /// Whether a session started at `started` and last used at `last_seen` is still live
    /// at `now`, or why it ended.
    pub fn standing(
        &self,
        started: DateTime<Utc>,
        last_seen: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<(), SessionEnd> {
        if now - started >= self.max {
            return Err(SessionEnd::Max);
        }
        if now - last_seen >= self.idle {
            return Err(SessionEnd::Idle);
        }
        Ok(())
    }

    /// Whether a use at `now` should be written down (the store is written at most once a
    /// minute per session, or each twentieth of the idle lifetime when that is shorter).
    pub fn worth_touching(&self, last_seen: DateTime<Utc>, now: DateTime<Utc>) -> bool {
        let step = (self.idle / 20).min(Duration::minutes(1));
        now - last_seen >= step
    }
}

/// A page of this console to come back to after signing in: a path (and query) beginning
/// with one `/`, holding no scheme, no authority, no backslash and no control character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReturnPath(String);

/// Why a return path was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the page to come back to after signing in must be a path of this console (such as \
     /releases), not '{0}'"
)]
pub struct ForeignReturn(pub String);

/// The longest return path kept (a longer one is refused, not cut).
const LONGEST: usize = 2048;

impl ReturnPath {
    /// The dashboard.
    pub fn home() -> Self {
        Self("/".to_owned())
    }

    /// `text` as a path of this site, or why it is not one.
    pub fn parse(text: &str) -> Result<Self, ForeignReturn> {
        let refuse = || ForeignReturn(text.chars().take(200).collect());
        let mut chars = text.chars();
        let first_is_slash = chars.next() == Some('/');
        let second = chars.next();
        let same_site = first_is_slash
            && !matches!(second, Some('/') | Some('\\'))
            && text.len() <= LONGEST
            && !text
                .chars()
                .any(|c| c == '\\' || c.is_control() || c.is_whitespace());
        if same_site {
            Ok(Self(text.to_owned()))
        } else {
            Err(refuse())
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minutes: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + Duration::minutes(minutes)
    }

    #[test]
    fn a_session_ends_when_idle_or_too_old_whichever_comes_first() {
        let lifetimes = SessionLifetimes {
            idle: Duration::minutes(30),
            max: Duration::hours(8),
        };
        assert_eq!(lifetimes.standing(at(0), at(0), at(29)), Ok(()));
        assert_eq!(
            lifetimes.standing(at(0), at(0), at(30)),
            Err(SessionEnd::Idle)
        );
        assert_eq!(lifetimes.standing(at(0), at(460), at(479)), Ok(()));
        assert_eq!(
            lifetimes.standing(at(0), at(470), at(480)),
            Err(SessionEnd::Max),
            "used a minute before, still too old"
        );
    }

    #[test]
    fn a_use_is_written_down_at_most_once_a_minute() {
        let lifetimes = SessionLifetimes {
            idle: Duration::minutes(30),
            max: Duration::hours(8),
        };
        assert!(!lifetimes.worth_touching(at(10), at(10)));
        assert!(lifetimes.worth_touching(at(10), at(11)));
        let short = SessionLifetimes {
            idle: Duration::minutes(2),
            max: Duration::hours(1),
        };
        assert!(short.worth_touching(at(0), at(0) + Duration::seconds(6)));
        assert!(!short.worth_touching(at(0), at(0) + Duration::seconds(5)));
    }

    #[test]
    fn only_paths_of_this_site_are_come_back_to() {
        for ok in [
            "/",
            "/releases",
            "/repos/abc/versions?at=30#v3",
            "/a/b%2F/c",
        ] {
            assert_eq!(ReturnPath::parse(ok).unwrap().as_str(), ok);
        }
        for attack in [
            "//evil.example/",
            "/\\evil.example",
            "https://evil.example/",
            "evil.example",
            "",
            "javascript:alert(1)",
            "/\t/evil.example",
            "/ok\r\nSet-Cookie: x=1",
            "/a\\b",
        ] {
            assert!(ReturnPath::parse(attack).is_err(), "{attack:?} refused");
        }
        assert!(ReturnPath::parse(&format!("/{}", "a".repeat(LONGEST))).is_err());
    }
}
