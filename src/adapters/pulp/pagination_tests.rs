//! Reading every distribution against a small fake Pulp that counts requests and how many
//! it answers at once: the first listing reads the first page, then the others at once; the
//! next listings ask for every page at once (the length remembered), and follow a list that
//! grew or shrank.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::adapters::pulp::dto::DistributionDto;
use crate::adapters::pulp::{PulpClient, PulpSettings, Secret};
use crate::wiring::default_pulp_settings;
use std::sync::atomic::AtomicU64;

#[derive(Default)]
struct Fake {
    distributions: u64,
    requests: u32,
    in_flight: u32,
    most_at_once: u32,
}

type Shared = Arc<Mutex<Fake>>;

async fn distributions(
    State(fake): State<Shared>,
    Query(query): Query<HashMap<String, String>>,
) -> Json<Value> {
    let number = |name: &str| query.get(name).and_then(|v| v.parse::<u64>().ok());
    let (limit, offset) = (
        number("limit").unwrap_or(100),
        number("offset").unwrap_or(0),
    );
    let count = {
        let mut fake = fake.lock().unwrap();
        fake.requests += 1;
        fake.in_flight += 1;
        fake.most_at_once = fake.most_at_once.max(fake.in_flight);
        fake.distributions
    };
    // Long enough for the client's concurrent requests to overlap here.
    tokio::time::sleep(Duration::from_millis(100)).await;
    fake.lock().unwrap().in_flight -= 1;
    let results: Vec<Value> = (offset..count.min(offset + limit))
        .map(|n| {
            json!({
                "pulp_href": format!("/pulp/api/v3/distributions/rpm/rpm/{n}/"),
                "name": format!("d-{n}"),
                "base_path": format!("d-{n}"),
                "publication": null,
            })
        })
        .collect();
    let next = (offset + limit < count).then(|| {
        format!(
            "/pulp/api/v3/distributions/rpm/rpm/?limit={limit}&offset={}",
            offset + limit
        )
    });
    Json(json!({"count": count, "next": next, "previous": null, "results": results}))
}

async fn serve(distributions_count: u64) -> (PulpClient, Shared) {
    let shared = Arc::new(Mutex::new(Fake {
        distributions: distributions_count,
        ..Fake::default()
    }));
    let app = Router::new()
        .route("/pulp/api/v3/distributions/rpm/rpm/", get(distributions))
        .with_state(shared.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    let settings = PulpSettings {
        password: Secret::new("password"),
        ..default_pulp_settings(&base_url).unwrap()
    };
    (PulpClient::new(settings).unwrap(), shared)
}

/// Lists every distribution, 1,000 a page; the number found, the requests made and the most
/// at once.
async fn list(client: &PulpClient, fake: &Shared, length: &AtomicU64) -> (usize, u32, u32) {
    {
        let mut fake = fake.lock().unwrap();
        fake.requests = 0;
        fake.most_at_once = 0;
    }
    let found: Vec<DistributionDto> = client
        .get_all_remembering("distributions/rpm/rpm/", 1000, length)
        .await
        .expect("listed");
    let fake = fake.lock().unwrap();
    (found.len(), fake.requests, fake.most_at_once)
}

#[tokio::test]
async fn every_distribution_is_read_in_one_round_once_the_length_is_known() {
    let (client, fake) = serve(4500).await;
    let length = AtomicU64::new(0);
    assert_eq!(
        list(&client, &fake, &length).await,
        (4500, 5, 4),
        "the first page, then four at once"
    );
    assert_eq!(
        list(&client, &fake, &length).await,
        (4500, 5, 5),
        "all five at once"
    );
    fake.lock().unwrap().distributions = 5200;
    assert_eq!(
        list(&client, &fake, &length).await,
        (5200, 6, 5),
        "five at once, then the new one"
    );
    assert_eq!(list(&client, &fake, &length).await, (5200, 6, 6));
    fake.lock().unwrap().distributions = 300;
    assert_eq!(
        list(&client, &fake, &length).await,
        (300, 6, 6),
        "pages past the end are empty"
    );
    assert_eq!(list(&client, &fake, &length).await, (300, 1, 1));
    fake.lock().unwrap().distributions = 0;
    assert_eq!(list(&client, &fake, &length).await, (0, 1, 1));
    assert_eq!(list(&client, &fake, &length).await, (0, 1, 1));
}
