//! What an API token may do: its scopes. `read` (writes nothing), `sync`,
//! `deploy:<environment>` (deploy and roll back there), `approve:<environment>` (approve and
//! reject there), `check:<environment>` (report checks run there: a pipeline's tests), with
//! `*` for every environment. Each reaches only its own kind: a `check:` token cannot deploy,
//! a `deploy:` token cannot report a check. A write needs its scope **and** the
//! policy's permission; a person identified by the proxy has no scopes to pass.

use std::fmt;

use crate::domain::environment::EnvironmentName;

/// Where a `deploy:`, `approve:` or `check:` scope reaches.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reach {
    /// `*`: every environment.
    Every,
    Only(EnvironmentName),
}

/// One thing a token may do.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Read,
    Sync,
    Deploy(Reach),
    Approve(Reach),
    Check(Reach),
}

/// Why a text is not a scope.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a scope: write read, sync, deploy:<environment>, approve:<environment>, \
     check:<environment> (or deploy:*, approve:*, check:* for every environment)"
)]
pub struct InvalidScope(pub String);

impl Scope {
    pub fn parse(text: &str) -> Result<Self, InvalidScope> {
        let invalid = || InvalidScope(text.to_owned());
        let text = text.trim();
        match text {
            "read" => return Ok(Self::Read),
            "sync" => return Ok(Self::Sync),
            _ => {}
        }
        let (kind, environment) = text.split_once(':').ok_or_else(invalid)?;
        let reach = match environment.trim() {
            "*" => Reach::Every,
            name => Reach::Only(EnvironmentName::parse(name).map_err(|_| invalid())?),
        };
        match kind.trim() {
            "deploy" => Ok(Self::Deploy(reach)),
            "approve" => Ok(Self::Approve(reach)),
            "check" => Ok(Self::Check(reach)),
            _ => Err(invalid()),
        }
    }

    /// The scope a deploy (or rollback) to `environment` needs.
    pub fn deploy_to(environment: &EnvironmentName) -> Self {
        Self::Deploy(Reach::Only(environment.clone()))
    }

    /// The scope approving (or rejecting) a deploy to `environment` needs.
    pub fn approve_for(environment: &EnvironmentName) -> Self {
        Self::Approve(Reach::Only(environment.clone()))
    }

    /// The scope reporting a check run in `environment` needs.
    pub fn check_in(environment: &EnvironmentName) -> Self {
        Self::Check(Reach::Only(environment.clone()))
    }

    /// Whether holding this scope grants `needed`.
    pub fn grants(&self, needed: &Scope) -> bool {
        let reaches = |held: &Reach, needed: &Reach| match (held, needed) {
            (Reach::Every, _) => true,
            (Reach::Only(a), Reach::Only(b)) => a == b,
            (Reach::Only(_), Reach::Every) => false,
        };
        match (self, needed) {
            (Self::Deploy(held), Self::Deploy(asked)) => reaches(held, asked),
            (Self::Approve(held), Self::Approve(asked)) => reaches(held, asked),
            (Self::Check(held), Self::Check(asked)) => reaches(held, asked),
            (held, asked) => held == asked,
        }
    }

    /// Whether this scope lets its holder approve somewhere (such a token must name its
    /// owner, or the four-eyes rule could not tell whose it is).
    pub fn approves(&self) -> bool {
        matches!(self, Self::Approve(_))
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reach = |r: &Reach| match r {
            Reach::Every => "*".to_owned(),
            Reach::Only(environment) => environment.to_string(),
        };
        match self {
            Self::Read => f.write_str("read"),
            Self::Sync => f.write_str("sync"),
            Self::Deploy(r) => write!(f, "deploy:{}", reach(r)),
            Self::Approve(r) => write!(f, "approve:{}", reach(r)),
            Self::Check(r) => write!(f, "check:{}", reach(r)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> EnvironmentName {
        EnvironmentName::parse(name).unwrap()
    }

    #[test]
    fn scopes_parse_and_print_as_written() {
        for text in [
            "read",
            "sync",
            "deploy:testing",
            "approve:production",
            "deploy:*",
            "check:staging",
            "check:*",
        ] {
            assert_eq!(Scope::parse(text).unwrap().to_string(), text);
        }
        for bad in [
            "",
            "write",
            "deploy",
            "deploy:",
            "approve:a b",
            "sync:x",
            "*",
        ] {
            assert!(Scope::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_scope_grants_its_own_environment_or_every_one_with_a_star() {
        let production = env("production");
        let deploy_testing = Scope::parse("deploy:testing").unwrap();
        assert!(deploy_testing.grants(&Scope::deploy_to(&env("testing"))));
        assert!(!deploy_testing.grants(&Scope::deploy_to(&production)));
        assert!(!deploy_testing.grants(&Scope::approve_for(&env("testing"))));
        let every = Scope::parse("deploy:*").unwrap();
        assert!(every.grants(&Scope::deploy_to(&production)));
        assert!(!every.grants(&Scope::approve_for(&production)));
        assert!(!Scope::Read.grants(&Scope::Sync));
        assert!(Scope::Sync.grants(&Scope::Sync));
    }

    #[test]
    fn a_check_scope_reports_checks_only_and_a_deploy_scope_reports_none() {
        let staging = env("staging");
        let check = Scope::parse("check:staging").unwrap();
        assert!(check.grants(&Scope::check_in(&staging)));
        assert!(!check.grants(&Scope::check_in(&env("production"))));
        assert!(
            !check.grants(&Scope::deploy_to(&staging)),
            "a check: token cannot deploy"
        );
        assert!(!check.grants(&Scope::approve_for(&staging)));
        let deploy_every = Scope::parse("deploy:*").unwrap();
        assert!(
            !deploy_every.grants(&Scope::check_in(&staging)),
            "a deploy: token cannot report a check"
        );
        assert!(Scope::parse("check:*")
            .unwrap()
            .grants(&Scope::check_in(&staging)));
    }
}
