//! At most one open request per repository, environment, target version and requester: the
//! requests of one such ask take ids in turn (the n-th is named by a hash of the ask and n),
//! so asking again finds the open one, and two replicas asking at once race to create the
//! same id, which the store makes once (the other answers the winner's request).

use sha2::{Digest, Sha256};

use crate::domain::environment::EnvironmentName;
use crate::domain::identity::Operator;
use crate::domain::ids::RequestId;

/// What makes two asks the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SameAsk(String);

impl SameAsk {
    /// The ask of `request` (`requester`: who asks now).
    pub(crate) fn of(
        repository_uuid: &str,
        environment: &EnvironmentName,
        target_version: u64,
        requester: &Operator,
    ) -> Self {
        // Each part prefixed by its length: no two asks write the same text.
        let part = |text: &str| format!("{}:{text}", text.len());
        Self(format!(
            "{}|{}|{target_version}|{}",
            part(repository_uuid),
            part(environment.as_str()),
            part(requester_key(requester)),
        ))
    }

    /// The id of the `n`-th request of this ask (from 0): a UUID (RFC 9562 version 8) made
    /// of the SHA-256 of the ask and `n`.
    pub(crate) fn id(&self, n: u64) -> RequestId {
        let digest = Sha256::digest(format!("repo-console request|{}|{n}", self.0));
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&digest[..16]);
        let uuid = uuid::Builder::from_custom_bytes(bytes).into_uuid();
        RequestId::parse(&uuid.to_string()).expect("a UUID is a request id")
    }
}

/// The requester as requests compare people: by the canonical key of the name (so `ALICE`
/// asking again finds alice's open request).
fn requester_key(requester: &Operator) -> &str {
    requester.key().as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(repo: &str, env: &str, target: u64, who: &str) -> SameAsk {
        SameAsk::of(
            repo,
            &EnvironmentName::parse(env).unwrap(),
            target,
            &Operator::new(who).unwrap(),
        )
    }

    const REPO: &str = "0199a1b2-0000-7000-8000-0000000000aa";

    #[test]
    fn the_same_ask_names_the_same_requests_in_turn() {
        let one = ask(REPO, "production", 7, "alice");
        assert_eq!(one, ask(REPO, "production", 7, "alice"));
        assert_eq!(one.id(0), ask(REPO, "production", 7, "alice").id(0));
        assert_ne!(one.id(0), one.id(1));
        assert!(uuid::Uuid::parse_str(one.id(3).as_str()).is_ok());
    }

    #[test]
    fn one_person_in_two_spellings_asks_the_same() {
        assert_eq!(
            ask(REPO, "production", 7, "alice"),
            ask(REPO, "production", 7, " ALICE")
        );
    }

    #[test]
    fn another_repository_environment_version_or_requester_is_another_ask() {
        let one = ask(REPO, "production", 7, "alice");
        for other in [
            ask(
                "0199a1b2-0000-7000-8000-0000000000bb",
                "production",
                7,
                "alice",
            ),
            ask(REPO, "staging", 7, "alice"),
            ask(REPO, "production", 8, "alice"),
            ask(REPO, "production", 7, "carol"),
        ] {
            assert_ne!(one, other);
            assert_ne!(one.id(0), other.id(0));
        }
    }
}
