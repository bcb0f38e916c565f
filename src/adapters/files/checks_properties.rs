//! Property test of the check file's lines (issue 43): any report, claim and release, written
//! by the store, hold no key twice on any line and are read back, by a fresh store, as they
//! were written.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;

use crate::domain::check::{CheckKey, CheckName, CheckReport, PromotionKey, RunUrl};
use crate::domain::environment::EnvironmentName;
use crate::domain::record_keys::Written;
use crate::domain::repository::RepoId;
use crate::ports::CheckStore;

use super::JsonlCheckStore;

const REPO: &str = "0199a1b2-0000-7000-8000-0000000000aa";

fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_000_000_000, 0u32..1000)
        .prop_map(|(s, ms)| Utc.timestamp_opt(s, ms * 1_000_000).single().unwrap())
}

prop_compose! {
    fn report()(
        environment in prop_oneof![Just("testing"), Just("staging"), Just("production")],
        version in any::<u64>(),
        name in "[a-z0-9._-]{1,64}",
        repository_name in prop_oneof![".{0,30}", Just("\"line\":\"x\"".to_owned())],
        passed in any::<bool>(),
        url in proptest::option::of("https://ci\\.example/[a-z0-9/]{0,20}"),
        reporter in ".{0,20}",
        at in instant(),
    ) -> CheckReport {
        CheckReport {
            key: CheckKey {
                repository_uuid: REPO.into(),
                environment: EnvironmentName::parse(environment).unwrap(),
                version,
                name: CheckName::parse(&name).unwrap(),
            },
            repository_name,
            passed,
            url: url.map(|u| RunUrl::parse(&u).unwrap()),
            reporter,
            at,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_check_line_is_written_without_a_key_twice_and_read_back(report in report()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("checks.jsonl");
        let key = PromotionKey {
            repository_uuid: REPO.into(),
            environment: report.key.environment.clone(),
            version: report.key.version,
        };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (latest, claimed_again, claimed_after_release) = runtime.block_on(async {
            let store = JsonlCheckStore::new(&path);
            store.record(&report).await.unwrap();
            assert!(store.claim_promotion(&key).await.unwrap());
            let fresh = JsonlCheckStore::new(&path);
            let repo = RepoId::parse(REPO).unwrap();
            let latest = fresh.latest(&repo, Some(report.key.version)).await.unwrap();
            let again = fresh.claim_promotion(&key).await.unwrap();
            fresh.release_promotion(&key).await.unwrap();
            let after = JsonlCheckStore::new(&path).claim_promotion(&key).await.unwrap();
            (latest, again, after)
        });
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let written = Written::parse(line.as_bytes()).unwrap();
            prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new(), "{}", line);
        }
        prop_assert_eq!(latest, vec![report]);
        prop_assert!(!claimed_again, "the claim read back");
        prop_assert!(claimed_after_release, "the release read back");
    }
}
