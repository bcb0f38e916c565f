//! Property test of the audit's release lines (issue 43): any release promotion's line, with
//! any text in its fields and any of its optional parts, written by the sink holds no key
//! twice and is read back, by a fresh sink, as it was written; a line written for another
//! release is never read as this one's.

use chrono::{DateTime, TimeZone, Utc};
use proptest::prelude::*;

use crate::domain::deploy::{ApprovalTrail, DeployId, DeployKind, FreezeOverride};
use crate::domain::environment::EnvironmentName;
use crate::domain::identity::PersonName;
use crate::domain::ids::{ReleaseId, ReleaseName, ReleaseRef, RequestId};
use crate::domain::record_keys::Written;
use crate::domain::release::{MemberLine, MemberOutcome, ReleaseLine, ReleaseRecord, ServedSet};
use crate::ports::AuditSink;

use super::JsonlAuditSink;

/// Any text, or one that looks like the start of a release line (the sink finds a release's
/// lines by that text before it parses them).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,30}",
        Just("\"record\":\"release\",\"release\":{\"name\":\"rhel9\"".to_owned()),
    ]
}

/// An instant as the audit writes it (milliseconds).
fn instant() -> impl Strategy<Value = DateTime<Utc>> {
    (0i64..4_000_000_000, 0u32..1000)
        .prop_map(|(s, ms)| Utc.timestamp_opt(s, ms * 1_000_000).single().unwrap())
}

fn name() -> impl Strategy<Value = PersonName> {
    "[a-z][a-z0-9.-]{0,15}".prop_map(|n| PersonName::new(&n).unwrap())
}

fn outcome() -> impl Strategy<Value = MemberOutcome> {
    prop_oneof![
        Just(MemberOutcome::Moved),
        Just(MemberOutcome::Restored),
        Just(MemberOutcome::Unchanged),
        Just(MemberOutcome::Unknown),
    ]
}

prop_compose! {
    fn member()(
        repository_name in text(),
        repository_uuid in "[0-9a-f-]{36}",
        deploy_id in proptest::option::of("[a-z0-9-]{1,36}"),
        previous_version in proptest::option::of(any::<u64>()),
        target_version in any::<u64>(),
        outcome in outcome(),
        detail in proptest::option::of(text()),
    ) -> MemberLine {
        MemberLine {
            repository_name,
            repository_uuid,
            deploy_id: deploy_id.map(DeployId::new),
            previous_version,
            target_version,
            outcome,
            detail,
        }
    }
}

prop_compose! {
    fn approval()(
        request_id in "[a-zA-Z0-9-]{1,64}",
        requester in name(),
        approvers in proptest::collection::vec(name(), 0..3),
    ) -> ApprovalTrail {
        ApprovalTrail { request_id: RequestId::parse(&request_id).unwrap(), requester, approvers }
    }
}

prop_compose! {
    fn release_line()(
        release in "[a-z0-9][a-z0-9_-]{0,20}",
        id in "[a-z0-9-]{1,36}",
        timestamp in instant(),
        operator in text(),
        environment in prop_oneof![Just("testing"), Just("staging"), Just("production")],
        rollback in any::<bool>(),
        reason in proptest::option::of(text()),
        request in proptest::option::of(approval()),
        freeze_override in proptest::option::of((text(), text())),
        members in proptest::collection::vec(member(), 0..4),
        served in prop_oneof![
            Just(ServedSet::Old),
            Just(ServedSet::New),
            Just(ServedSet::Mixed),
            Just(ServedSet::Unknown),
        ],
        error in proptest::option::of(text()),
    ) -> ReleaseRecord {
        ReleaseRecord {
            record: ReleaseLine::Release,
            release: ReleaseRef { name: ReleaseName::parse(&release).unwrap(), id: ReleaseId::new(id) },
            timestamp,
            operator,
            environment: EnvironmentName::parse(environment).unwrap(),
            kind: if rollback { DeployKind::Rollback } else { DeployKind::Deploy },
            reason,
            request,
            freeze_override: freeze_override.map(|(window, until)| FreezeOverride { window, until }),
            members,
            served,
            error,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_release_line_is_written_without_a_key_twice_and_read_back(
        record in release_line(),
        other in release_line(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("audit.jsonl");
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (read, others) = runtime.block_on(async {
            let sink = JsonlAuditSink::new(&path);
            sink.record_release(&record).await.unwrap();
            sink.record_release(&other).await.unwrap();
            let fresh = JsonlAuditSink::new(&path);
            let read = fresh.recent_releases(&record.release.name, 10).await.unwrap();
            let others = fresh.recent_releases(&other.release.name, 10).await.unwrap();
            (read, others)
        });
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let written = Written::parse(line.as_bytes()).unwrap();
            prop_assert_eq!(written.duplicate_keys(), Vec::<String>::new(), "{}", line);
        }
        if record.release.name == other.release.name {
            prop_assert_eq!(read, vec![other, record]);
        } else {
            prop_assert_eq!(read, vec![record]);
            prop_assert_eq!(others, vec![other]);
        }
    }
}
