//! A pin record as the file and PostgreSQL pin stores keep it: one JSON object,
//! `{"pin": "<repository uuid>/<environment>", "record": {"record": "set" | "lifted", ...}}`,
//! the key first, so that a record torn by a crash still names the pin it concerns.

use serde::{Deserialize, Serialize};

use crate::domain::pin::{PinKey, PinRecord, UnreadablePin};
use crate::domain::record_keys::leading_string;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Stored {
    pin: String,
    record: PinRecord,
}

/// The stored form of `record`.
pub fn encode(record: &PinRecord) -> Result<Vec<u8>, serde_json::Error> {
    serde_json::to_vec(&Stored {
        pin: record.key().to_string(),
        record: record.clone(),
    })
}

/// The record `bytes` hold, or what cannot be read of it (`place`: where it is, for the
/// operator): the pin it still names, if any, and why.
pub fn decode(bytes: &[u8], place: impl FnOnce() -> String) -> Result<PinRecord, UnreadablePin> {
    let named = || leading_string(bytes, "pin").and_then(|key| PinKey::parse(&key));
    match serde_json::from_slice::<Stored>(bytes) {
        Ok(stored) if PinKey::parse(&stored.pin) == Some(stored.record.key()) => Ok(stored.record),
        Ok(stored) => Err(UnreadablePin {
            id: PinKey::parse(&stored.pin),
            place: place(),
            why: format!(
                "its key '{}' is not the pin its record concerns ({})",
                stored.pin,
                stored.record.key()
            ),
        }),
        Err(error) => Err(UnreadablePin {
            id: named(),
            place: place(),
            why: error.to_string(),
        }),
    }
}

/// Whether an unreadable record may concern `key` (it names it, or names nothing).
pub fn may_concern(unreadable: &UnreadablePin, key: &PinKey) -> bool {
    unreadable.id.as_ref().is_none_or(|id| id == key)
}

/// Whether an unreadable record may concern repository `repo`.
pub fn may_concern_repository(
    unreadable: &UnreadablePin,
    repo: &crate::domain::repository::RepoId,
) -> bool {
    unreadable
        .id
        .as_ref()
        .is_none_or(|id| id.repository == *repo)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::deploy::DeployId;
    use crate::domain::environment::EnvironmentName;
    use crate::domain::pin::Pin;
    use crate::domain::repository::{RepoId, VersionNumber};

    fn record() -> PinRecord {
        PinRecord::Set(Pin {
            repository: RepoId::parse("01a202de-e818-7629-a483-70ecc3240361").unwrap(),
            repository_name: "web".into(),
            environment: EnvironmentName::production(),
            version: VersionNumber::new(3),
            set_by: "alice".into(),
            reason: "broken".into(),
            at: "2026-11-28T10:00:00Z".parse().unwrap(),
            deploy_id: DeployId::new("d-1"),
        })
    }

    #[test]
    fn a_record_reads_back_and_a_damaged_one_still_names_its_pin() {
        let bytes = encode(&record()).unwrap();
        assert!(bytes.starts_with(b"{\"pin\":\"01a202de-e818-7629-a483-70ecc3240361/production\""));
        assert_eq!(decode(&bytes, || "line 1".into()).unwrap(), record());
        let torn = &bytes[..bytes.len() / 2];
        let unreadable = decode(torn, || "line 2".into()).unwrap_err();
        assert_eq!(unreadable.id, Some(record().key()));
        assert_eq!(unreadable.place, "line 2");
        assert!(may_concern(&unreadable, &record().key()));
        let other = PinKey::new(
            record().key().repository,
            EnvironmentName::parse("staging").unwrap(),
        );
        assert!(!may_concern(&unreadable, &other));
        assert!(may_concern_repository(&unreadable, &other.repository));
        let nameless = decode(b"{\"garbage", || "line 3".into()).unwrap_err();
        assert_eq!(nameless.id, None);
        assert!(
            may_concern(&nameless, &other),
            "a nameless record holds every pin"
        );
    }

    #[test]
    fn a_record_whose_key_is_not_its_pin_is_unreadable() {
        let text = String::from_utf8(encode(&record()).unwrap())
            .unwrap()
            .replacen("/production\"", "/staging\"", 1);
        let unreadable = decode(text.as_bytes(), || "row 7".into()).unwrap_err();
        assert!(unreadable.why.contains("not the pin"), "{}", unreadable.why);
    }
}
