//! The request store with a long history: what listing requests and approving one cost when
//! `requests.jsonl` holds 100,000 closed requests (each a request line and a rejection).
//! Prints the median time of `recent(50)` (the first screen of /requests), `get` of a pending
//! request (an approval reads it two to three times), and `append` of an approval (the
//! approval's write, compare-and-swapped under the file lock); asserts nothing about speed.
//!
//!     cargo bench --bench requests

#[path = "common/timing.rs"]
mod timing;
use timing::median_of;

use chrono::{TimeZone, Utc};
use repo_console::adapters::files::requests::JsonlRequestStore;
use repo_console::domain::approval::{ApprovalRequest, RequestEvent};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::ids::RequestId;
use repo_console::ports::RequestStore;

const CLOSED: usize = 100_000;
const TEMPLATE: &str = "template-request-0000";

fn request(id: &str) -> ApprovalRequest {
    let created = Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap();
    serde_json::from_value(serde_json::json!({
        "id": id,
        "repository_uuid": "01a202de-e818-7629-a483-70ecc3240361",
        "repository_name": "base-os",
        "environment": EnvironmentName::production(),
        "target_version": 7,
        "asked_against": 6,
        "requester": "alice",
        "requester_groups": ["release"],
        "kind": "deploy",
        "reason": null,
        "override_freeze": false,
        "created": created,
        "expires": created + chrono::Duration::hours(24),
    }))
    .expect("a request as the store keeps it")
}

fn event(kind: &str) -> RequestEvent {
    serde_json::from_value(serde_json::json!({
        "event": kind, "by": "bob", "at": Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap(),
    }))
    .expect("an event as the store keeps it")
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("a directory");
    // The lines of one closed request, as the store writes them, copied under other ids.
    let template_path = dir.path().join("template.jsonl");
    let template = JsonlRequestStore::new(&template_path);
    template.create(&request(TEMPLATE)).await.expect("created");
    let id = RequestId::parse(TEMPLATE).expect("an id");
    template
        .append(&id, 0, &event("rejected"))
        .await
        .expect("rejected");
    let lines = std::fs::read_to_string(&template_path).expect("the template");
    let path = dir.path().join("requests.jsonl");
    let mut text = String::with_capacity(lines.len() * CLOSED);
    for n in 0..CLOSED {
        text.push_str(&lines.replace(TEMPLATE, &format!("closed-{n:015}")));
    }
    std::fs::write(&path, &text).expect("the history");
    let store = JsonlRequestStore::new(&path);
    let pending = RequestId::parse("pending-request-0001").expect("an id");
    store
        .create(&request(pending.as_str()))
        .await
        .expect("the pending request");
    println!(
        "requests.jsonl with {CLOSED} closed requests ({:.1} MiB) and one pending:",
        text.len() as f64 / (1024.0 * 1024.0)
    );
    let list = median_of(10, async || store.recent(None, 50).await.expect("listed")).await;
    println!("  recent(50), the first screen of /requests   {list:?} (median of 10)");
    let get = median_of(10, async || store.get(&pending).await.expect("read")).await;
    println!("  get(one pending request)                    {get:?} (median of 10)");
    let mut seen = 0;
    let approve = median_of(5, async || {
        store
            .append(&pending, seen, &event("approved"))
            .await
            .expect("appended");
        seen += 1;
    })
    .await;
    println!("  append(an approval)                         {approve:?} (median of 5)");
}
