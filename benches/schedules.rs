//! The schedule file with a long history: what the background task's look at the due
//! schedules (`open`), the schedules list (`recent(200)`) and a claim (`replace`, under the
//! file lock) cost when `schedules.jsonl` holds 2,000 schedules that ended (each made,
//! claimed and ended: three lines), about fifteen years of a team scheduling a dozen deploys
//! a month without retention; then the first read of a fresh process (the whole file), and
//! the retention's removal of every ended one. Prints medians; asserts nothing about speed.
//!
//!     cargo bench --bench schedules

#[path = "common/timing.rs"]
mod timing;
use timing::median_of;

use chrono::{Duration, TimeZone, Utc};
use repo_console::adapters::files::schedules::JsonlScheduleStore;
use repo_console::domain::deploy::DeployId;
use repo_console::domain::ids::ScheduleId;
use repo_console::domain::schedule::rules::claimed;
use repo_console::domain::schedule::{Schedule, ScheduleState};
use repo_console::ports::ScheduleStore;

const ENDED: usize = 2_000;

fn schedule(id: &str) -> Schedule {
    let at = Utc.with_ymd_and_hms(2026, 12, 1, 2, 0, 0).unwrap();
    serde_json::from_value(serde_json::json!({
        "id": id,
        "repository_uuid": "01a202de-e818-7629-a483-70ecc3240361",
        "repository_name": "base-os",
        "environment": "production",
        "target_version": 7,
        "expected": 6,
        "kind": "deploy",
        "reason": "patch Tuesday",
        "override_freeze": false,
        "author": "alice",
        "author_key": "alice",
        "author_groups": ["release"],
        "at": at,
        "created": at - Duration::days(2),
        "revision": 0,
        "state": "waiting",
    }))
    .expect("a schedule as the store keeps it")
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("a directory");
    let store = JsonlScheduleStore::new(dir.path().join("schedules.jsonl"));
    let at = Utc.with_ymd_and_hms(2026, 12, 1, 2, 0, 0).unwrap();
    for n in 0..ENDED {
        let made = schedule(&format!("ended-{n:010}"));
        store.create(&made).await.expect("created");
        let running = claimed(
            made,
            "replica-a",
            at,
            Duration::minutes(10),
            DeployId::new("d"),
        );
        store.replace(&running).await.expect("claimed");
        let done = running.into_state(ScheduleState::Done {
            deploy_id: DeployId::new("d"),
            ended: at,
        });
        store.replace(&done).await.expect("ended");
    }
    let waiting = schedule("waiting-0000000001");
    store.create(&waiting).await.expect("the waiting one");
    let size = std::fs::metadata(store.path()).expect("the file").len();
    println!(
        "schedules.jsonl with {ENDED} ended schedules ({:.1} MiB) and one waiting:",
        size as f64 / (1024.0 * 1024.0)
    );
    let open = median_of(10, async || store.open().await.expect("read")).await;
    println!("  open(), each look of the background task    {open:?} (median of 10)");
    let recent = median_of(10, async || store.recent(None, 200).await.expect("read")).await;
    println!("  recent(200), /schedules                     {recent:?} (median of 10)");
    let id = ScheduleId::parse("waiting-0000000001").expect("an id");
    let mut current = store.get(&id).await.expect("read").expect("kept");
    let claim = median_of(5, async || {
        let next = current.clone().into_state(ScheduleState::Waiting);
        store.replace(&next).await.expect("replaced");
        current = next;
    })
    .await;
    println!("  replace(a claim), compare-and-swap          {claim:?} (median of 5)");
    let first = median_of(5, async || {
        let fresh = JsonlScheduleStore::new(store.path());
        fresh.open().await.expect("read")
    })
    .await;
    println!("  open() of a fresh process, the whole file   {first:?} (median of 5)");
    let ended: Vec<ScheduleId> = (0..ENDED)
        .map(|n| ScheduleId::parse(&format!("ended-{n:010}")).expect("an id"))
        .collect();
    let started = std::time::Instant::now();
    let removed = store.remove_ended(&ended).await.expect("pruned");
    let took = started.elapsed();
    let size = std::fs::metadata(store.path()).expect("the file").len();
    println!("  remove_ended({removed}), the retention       {took:?} (once; {size} bytes left)");
    let open = median_of(10, async || store.open().await.expect("read")).await;
    println!("  open() after the retention                  {open:?} (median of 10)");
}
