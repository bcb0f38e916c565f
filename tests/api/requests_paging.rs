//! Issue 34, paging: `/requests` and `GET /api/v1/requests` reach every request, newest first,
//! a page at a time (`?state=` keeps one state, `next` links the following page), and the
//! versions page lists every pending request of its repository however old.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{json, Value};

use repo_console::adapters::memory::MemoryRequestStore;
use repo_console::domain::approval::{ApprovalRequest, RequestEvent};
use repo_console::domain::ids::RequestId;
use repo_console::ports::RequestStore;

use crate::helpers::*;

const REQUESTS: usize = 250;

/// Request `n` of the fixture's base-os, made `n` minutes after the pinned time; every third
/// one is rejected, the rest wait for approvals.
async fn fill(store: &MemoryRequestStore, repo: &str) {
    for n in 0..REQUESTS {
        let created = pinned_time() + chrono::Duration::minutes(n as i64 - REQUESTS as i64);
        let request: ApprovalRequest = serde_json::from_value(json!({
            "id": format!("paging-{n:04}"),
            "repository_uuid": repo,
            "repository_name": "base-os",
            "environment": "production",
            "target_version": 4,
            "asked_against": 2,
            "requester": format!("user-{n}"),
            "created": created,
            "expires": pinned_time() + chrono::Duration::days(1),
        }))
        .unwrap();
        store.create(&request).await.unwrap();
        if n % 3 == 0 {
            let rejected: RequestEvent = serde_json::from_value(json!({
                "event": "rejected", "by": "bob", "at": created,
            }))
            .unwrap();
            store.append(&request.id, 0, &rejected).await.unwrap();
        }
    }
}

async fn console() -> (crate::policy::Guarded, Arc<MemoryRequestStore>) {
    let store = Arc::new(MemoryRequestStore::default());
    let kept = store.clone();
    let app = fixture_app()
        .configure(move |state| state.requests(kept, chrono::Duration::hours(24)))
        .spawn()
        .await;
    fill(&store, app.fixture.base_os.as_str()).await;
    (app, store)
}

async fn json_at(app: &crate::policy::Guarded, path: &str) -> Value {
    let reply = app.client.send("GET", path, &[], "").await;
    assert_eq!(reply.status, 200, "{path}: {}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

/// Every id the API lists from `first`, following `next`.
async fn walk_api(app: &crate::policy::Guarded, first: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut path = Some(first.to_owned());
    while let Some(at) = path {
        let page = json_at(app, &at).await;
        let items = page["items"].as_array().unwrap();
        assert!(items.len() <= 50, "{at}: {} items", items.len());
        ids.extend(items.iter().map(|i| i["id"].as_str().unwrap().to_owned()));
        path = page["next"].as_str().map(str::to_owned);
    }
    ids
}

#[tokio::test]
async fn the_api_pages_through_every_request_newest_first() {
    let (app, _store) = console().await;
    let all = walk_api(&app, "/api/v1/requests").await;
    assert_eq!(all.len(), REQUESTS);
    assert_eq!(
        all.iter().collect::<HashSet<_>>().len(),
        REQUESTS,
        "each once"
    );
    assert_eq!(all.first().map(String::as_str), Some("paging-0249"));
    assert_eq!(all.last().map(String::as_str), Some("paging-0000"));

    let pending = walk_api(&app, "/api/v1/requests?state=pending").await;
    assert_eq!(pending.len(), REQUESTS - REQUESTS.div_ceil(3));
    let rejected = walk_api(&app, "/api/v1/requests?state=rejected").await;
    assert_eq!(rejected.len(), REQUESTS.div_ceil(3));
    assert!(rejected.iter().all(|id| !pending.contains(id)));

    for (bad, says) in [
        ("/api/v1/requests?state=approved", "not a request state"),
        (
            "/api/v1/requests?after=no-such-request",
            "no request no-such-request",
        ),
    ] {
        let reply = app.client.send("GET", bad, &[], "").await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
        assert!(reply.body.contains(says), "{bad}: {}", reply.body);
    }
}

#[tokio::test]
async fn the_requests_page_has_a_pager_and_a_state_filter() {
    let (app, _store) = console().await;
    let mut seen = Vec::new();
    let mut path = Some("/requests?state=pending".to_owned());
    let mut pages = 0;
    while let Some(at) = path {
        let html = app.client.send("GET", &at, &[], "").await.html();
        seen.extend(
            select(&html, "[data-request-state]")
                .iter()
                .map(|row| attr(row, "data-request-state").to_owned()),
        );
        path = select(&html, "a[data-next]")
            .first()
            .map(|a| attr(a, "href").to_owned());
        if pages > 0 {
            assert_eq!(
                select(&html, "a[data-first]").len(),
                1,
                "a way back to the newest"
            );
        }
        pages += 1;
    }
    assert_eq!(pages, 4, "167 pending requests, 50 a page");
    assert_eq!(seen.len(), REQUESTS - REQUESTS.div_ceil(3));
    assert!(seen.iter().all(|state| state == "pending"), "{seen:?}");
    let form = app.client.send("GET", "/requests", &[], "").await.html();
    assert_eq!(
        select(&form, "form[data-requests-filter] option").len(),
        10,
        "any, and the nine states"
    );
}

#[tokio::test]
async fn the_versions_page_lists_every_pending_request_however_old() {
    let (app, store) = console().await;
    let oldest_pending = RequestId::parse("paging-0001").unwrap();
    assert!(store.get(&oldest_pending).await.unwrap().is_some());
    let page = app
        .client
        .send(
            "GET",
            &format!("/repos/{}/versions", app.fixture.base_os),
            &[],
            "",
        )
        .await;
    assert_eq!(page.status, 200);
    let html = page.html();
    let listed: Vec<String> = select(&html, "#requests [data-request-id]")
        .iter()
        .map(|row| attr(row, "data-request-id").to_owned())
        .collect();
    assert!(listed.contains(&"paging-0001".to_owned()), "{listed:?}");
    let pending = listed.iter().filter(|id| {
        let n: usize = id.trim_start_matches("paging-").parse().unwrap();
        !n.is_multiple_of(3)
    });
    assert_eq!(pending.count(), REQUESTS - REQUESTS.div_ceil(3));
}

/// Issue 34, retention: the closed requests nothing happened to for longer than the
/// retention are pruned; open ones never, however old; a pruned request's page is a 404.
#[tokio::test]
async fn closed_requests_past_their_retention_are_pruned_and_open_ones_kept() {
    let (app, store) = console().await;
    let keep = chrono::Duration::minutes(60);
    let pruned = repo_console::app::approvals::retention::prune_once(&app.state, keep)
        .await
        .unwrap();
    // Rejected: every third request; those made in the last hour (n >= 190) are kept.
    assert_eq!(pruned, 64);
    let left = store.recent(None, usize::MAX).await.unwrap();
    assert_eq!(left.len(), REQUESTS - 64);
    let old_pending = RequestId::parse("paging-0001").unwrap();
    assert!(
        store.get(&old_pending).await.unwrap().is_some(),
        "open: kept"
    );
    let gone = app
        .client
        .send("GET", "/requests/paging-0000", &[], "")
        .await;
    assert_eq!(gone.status, 404, "{}", gone.body);
    let again = repo_console::app::approvals::retention::prune_once(&app.state, keep)
        .await
        .unwrap();
    assert_eq!(again, 0);
}
