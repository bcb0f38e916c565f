//! A pin as it holds: the version a rollback restored in an environment of a repository,
//! who rolled back, why, when, and the rollback's deploy id.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::deploy::{DeployId, PinnedRefusal, Refusal};
use crate::domain::environment::EnvironmentName;
use crate::domain::pin::PinKey;
use crate::domain::repository::{RepoId, VersionNumber};

/// An environment of a repository held at a version by a rollback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    pub repository: RepoId,
    /// The repository's name when it was pinned (for messages and events).
    pub repository_name: String,
    pub environment: EnvironmentName,
    /// The version the rollback restored, which the pin holds.
    pub version: VersionNumber,
    /// Who rolled back (the operator's name as the audit log writes it).
    pub set_by: String,
    /// The rollback's reason.
    pub reason: String,
    pub at: DateTime<Utc>,
    /// The rollback that set it.
    pub deploy_id: DeployId,
}

impl Pin {
    pub fn key(&self) -> PinKey {
        PinKey::new(self.repository.clone(), self.environment.clone())
    }

    /// The refusal of a move this pin holds back (an automatic promotion, a schedule).
    pub fn refusal(&self) -> Refusal {
        Refusal::Pinned(Box::new(PinnedRefusal {
            environment: self.environment.clone(),
            version: self.version.get(),
            set_by: self.set_by.clone(),
            reason: self.reason.clone(),
            since: self.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_refusal_says_who_pinned_it_why_since_when_and_how_to_go_on() {
        let pin = Pin {
            repository: RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap(),
            repository_name: "web".into(),
            environment: EnvironmentName::production(),
            version: VersionNumber::new(3),
            set_by: "alice".into(),
            reason: "v4 breaks logins".into(),
            at: "2026-11-28T10:00:00Z".parse().unwrap(),
            deploy_id: DeployId::new("d-1"),
        };
        let words = pin.refusal().to_string();
        for part in [
            "production is pinned to v3",
            "alice",
            "v4 breaks logins",
            "2026-11-28T10:00:00Z",
            "unpin",
        ] {
            assert!(words.contains(part), "{part:?} in {words}");
        }
    }
}
