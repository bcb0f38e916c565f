use super::*;
use crate::domain::event::{EventData, RepositoryRef, SyncFailedData};
use crate::domain::repository::TaskHref;

fn at(text: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(text).unwrap().into()
}

fn event(id: &str, task: &str) -> ConsoleEvent {
    ConsoleEvent {
        id: EventId::new(id),
        time: at("2026-11-22T10:00:00Z"),
        data: EventData::SyncFailed(SyncFailedData {
            repository: RepositoryRef {
                uuid: "u".into(),
                name: "base-os".into(),
            },
            task: TaskHref::new(task),
            reason: "Cannot connect".into(),
        }),
    }
}

fn hook(url: &str) -> WebhookUrl {
    WebhookUrl::parse(url).unwrap()
}

const LEASE: Duration = Duration::from_secs(60);

#[test]
fn a_fact_is_recorded_once_and_delivered_to_each_webhook() {
    let mut ledger = Ledger::default();
    let hooks = [hook("http://a.example/"), hook("http://b.example/")];
    assert_eq!(ledger.record(&event("e1", "/t/1/"), &hooks), Recorded::New);
    assert_eq!(
        ledger.record(&event("e2", "/t/1/"), &hooks),
        Recorded::Known,
        "the same failed task, seen again"
    );
    let claimed = ledger.claim(at("2026-11-22T10:00:00Z"), 10, LEASE);
    let ids: Vec<(&str, &str)> = claimed
        .iter()
        .map(|d| (d.event.id.as_str(), d.webhook.as_str()))
        .collect();
    assert_eq!(
        ids,
        [("e1", "http://a.example/"), ("e1", "http://b.example/")]
    );
    assert!(claimed.iter().all(|d| d.attempt == 1));
}

#[test]
fn a_claimed_delivery_is_nobody_elses_until_its_claim_lapses() {
    let mut ledger = Ledger::default();
    ledger.record(&event("e1", "/t/1/"), &[hook("http://a.example/")]);
    let first = ledger.claim(at("2026-11-22T10:00:00Z"), 10, LEASE);
    assert_eq!(first.len(), 1);
    assert!(ledger
        .claim(at("2026-11-22T10:00:59Z"), 10, LEASE)
        .is_empty());
    let again = ledger.claim(at("2026-11-22T10:01:00Z"), 10, LEASE);
    assert_eq!(again[0].attempt, 2, "the first claimer died");
    let stale = ledger.settle(
        &first[0].event.id,
        &first[0].webhook,
        1,
        &AttemptResult::Delivered,
    );
    assert!(!stale, "a lapsed claim settles nothing");
    assert_eq!(ledger.pending(), 1);
}

#[test]
fn a_retry_is_due_at_its_time_and_a_delivery_ends_delivered_or_given_up() {
    let mut ledger = Ledger::default();
    let a = hook("http://a.example/");
    ledger.record(&event("e1", "/t/1/"), std::slice::from_ref(&a));
    ledger.record(&event("e2", "/t/2/"), std::slice::from_ref(&a));
    let claimed = ledger.claim(at("2026-11-22T10:00:00Z"), 1, LEASE);
    assert_eq!(claimed.len(), 1, "at most the limit");
    let retry = AttemptResult::Retry {
        next: at("2026-11-22T10:00:20Z"),
        error: "answered 503".into(),
    };
    assert!(ledger.settle(&claimed[0].event.id, &a, 1, &retry));
    let now = ledger.claim(at("2026-11-22T10:00:10Z"), 10, LEASE);
    assert_eq!(now.len(), 1, "only the other one is due");
    assert!(ledger.settle(&now[0].event.id, &a, 1, &AttemptResult::Delivered));
    let later = ledger.claim(at("2026-11-22T10:00:20Z"), 10, LEASE);
    assert_eq!((later.len(), later[0].attempt), (1, 2));
    let gave_up = AttemptResult::GivenUp {
        error: "answered 503".into(),
    };
    assert!(ledger.settle(&later[0].event.id, &a, 2, &gave_up));
    assert_eq!(ledger.pending(), 0);
    assert!(
        ledger.knows("sync.failed:/t/1/"),
        "still known, not sent again"
    );
    assert!(ledger
        .claim(at("2026-11-23T00:00:00Z"), 10, LEASE)
        .is_empty());
}
