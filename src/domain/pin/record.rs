//! What the pin store keeps: one record per fact, in the order they happened. A rollback
//! sets a pin (`set`, replacing one that held), a person's deploy or an unpin lifts it
//! (`lifted`). The records of a key fold to the pin that holds now: the last one decides.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::domain::deploy::DeployId;
use crate::domain::environment::EnvironmentName;
use crate::domain::pin::{Pin, PinKey};
use crate::domain::repository::{RepoId, VersionNumber};

/// One fact about a pin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "record", rename_all = "lowercase")]
pub enum PinRecord {
    /// A rollback pinned the environment (replacing the pin that held, if one did).
    Set(Pin),
    /// The pin no longer holds.
    Lifted(Lift),
    /// The pin held a move back (an automatic promotion, a schedule): refused `pinned`.
    Held(Hold),
}

/// A move a pin held back: which pin, what was asked, by what, when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hold {
    pub repository: RepoId,
    pub environment: EnvironmentName,
    /// The version the pin holds.
    pub version: VersionNumber,
    /// The version the refused move was to.
    pub target: VersionNumber,
    /// What asked, in words (`automatic promotion: smoke passed on staging`, `schedule s-1 of
    /// alice`).
    pub asked_by: String,
    pub at: DateTime<Utc>,
}

/// A pin lifted: which, by whom, why, when and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lift {
    pub repository: RepoId,
    pub repository_name: String,
    pub environment: EnvironmentName,
    /// The version the lifted pin held.
    pub version: VersionNumber,
    /// Who lifted it (the operator's name as the audit log writes it).
    pub by: String,
    pub reason: String,
    pub at: DateTime<Utc>,
    pub how: LiftedBy,
}

/// How a pin was lifted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "lowercase")]
pub enum LiftedBy {
    /// A person's deploy moved the environment (the confirm step said it lifts the pin).
    Deploy {
        deploy_id: DeployId,
        to_version: VersionNumber,
    },
    /// Someone who may deploy there unpinned it, with a reason.
    Unpin,
}

impl PinRecord {
    pub fn key(&self) -> PinKey {
        match self {
            Self::Set(pin) => pin.key(),
            Self::Lifted(lift) => PinKey::new(lift.repository.clone(), lift.environment.clone()),
            Self::Held(hold) => PinKey::new(hold.repository.clone(), hold.environment.clone()),
        }
    }

    pub fn at(&self) -> DateTime<Utc> {
        match self {
            Self::Set(pin) => pin.at,
            Self::Lifted(lift) => lift.at,
            Self::Held(hold) => hold.at,
        }
    }
}

/// The pin that holds on `key` after `records` (in the order kept): the last set or lift of
/// the key decides (a set holds, a lift frees; a move held back changes nothing).
pub fn standing<'a>(key: &PinKey, records: impl IntoIterator<Item = &'a PinRecord>) -> Option<Pin> {
    let deciding = |r: &&PinRecord| !matches!(r, PinRecord::Held(_)) && r.key() == *key;
    match records.into_iter().filter(deciding).last()? {
        PinRecord::Set(pin) => Some(pin.clone()),
        PinRecord::Lifted(_) | PinRecord::Held(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> RepoId {
        RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap()
    }

    fn set(environment: &str, version: u64, at: &str) -> PinRecord {
        PinRecord::Set(Pin {
            repository: repo(),
            repository_name: "web".into(),
            environment: EnvironmentName::parse(environment).unwrap(),
            version: VersionNumber::new(version),
            set_by: "alice".into(),
            reason: "broken".into(),
            at: at.parse().unwrap(),
            deploy_id: DeployId::new(format!("rollback-{version}")),
        })
    }

    fn lifted(environment: &str, version: u64, how: LiftedBy) -> PinRecord {
        PinRecord::Lifted(Lift {
            repository: repo(),
            repository_name: "web".into(),
            environment: EnvironmentName::parse(environment).unwrap(),
            version: VersionNumber::new(version),
            by: "bob".into(),
            reason: "fixed".into(),
            at: "2026-11-28T12:00:00Z".parse().unwrap(),
            how,
        })
    }

    fn key(environment: &str) -> PinKey {
        PinKey::new(repo(), EnvironmentName::parse(environment).unwrap())
    }

    #[test]
    fn the_last_record_of_a_key_decides_and_other_keys_do_not_count() {
        let records = vec![
            set("production", 3, "2026-11-28T10:00:00Z"),
            set("staging", 5, "2026-11-28T10:30:00Z"),
            set("production", 2, "2026-11-28T11:00:00Z"),
        ];
        let held = standing(&key("production"), &records).unwrap();
        assert_eq!(
            held.version,
            VersionNumber::new(2),
            "a rollback replaces the pin"
        );
        assert_eq!(
            standing(&key("staging"), &records).unwrap().version.get(),
            5
        );
        assert_eq!(standing(&key("testing"), &records), None);

        let mut lifted_by_deploy = records.clone();
        lifted_by_deploy.push(lifted(
            "production",
            2,
            LiftedBy::Deploy {
                deploy_id: DeployId::new("d-9"),
                to_version: VersionNumber::new(4),
            },
        ));
        assert_eq!(standing(&key("production"), &lifted_by_deploy), None);
        assert!(standing(&key("staging"), &lifted_by_deploy).is_some());

        let mut held = records.clone();
        held.push(PinRecord::Held(Hold {
            repository: repo(),
            environment: EnvironmentName::production(),
            version: VersionNumber::new(2),
            target: VersionNumber::new(4),
            asked_by: "automatic promotion".into(),
            at: "2026-11-28T11:30:00Z".parse().unwrap(),
        }));
        assert_eq!(
            standing(&key("production"), &held).unwrap().version.get(),
            2,
            "a move held back leaves the pin as it was"
        );

        let mut set_again = lifted_by_deploy.clone();
        set_again.push(set("production", 4, "2026-11-28T13:00:00Z"));
        assert_eq!(
            standing(&key("production"), &set_again)
                .unwrap()
                .version
                .get(),
            4
        );
    }

    #[test]
    fn a_record_reads_back_as_written() {
        for record in [
            set("production", 3, "2026-11-28T10:00:00Z"),
            lifted("production", 3, LiftedBy::Unpin),
            lifted(
                "production",
                3,
                LiftedBy::Deploy {
                    deploy_id: DeployId::new("d-9"),
                    to_version: VersionNumber::new(4),
                },
            ),
        ] {
            let json = serde_json::to_string(&record).unwrap();
            assert_eq!(serde_json::from_str::<PinRecord>(&json).unwrap(), record);
        }
        let json = serde_json::to_value(lifted("production", 3, LiftedBy::Unpin)).unwrap();
        assert_eq!(json["record"], "lifted");
        assert_eq!(json["how"]["by"], "unpin");
    }
}
