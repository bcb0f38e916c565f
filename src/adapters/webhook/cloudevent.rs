//! An event as a CloudEvents 1.0 JSON document (structured content mode): the console's
//! event id (the same at every attempt), `source`, `type` = `io.repo-console.<event>`, the
//! time the console learnt the fact, and the event's data.

use chrono::SecondsFormat;
use serde::Serialize;

use crate::domain::event::ConsoleEvent;

/// The content type of a CloudEvents JSON document.
pub const CONTENT_TYPE: &str = "application/cloudevents+json";

#[derive(Serialize)]
struct CloudEvent<'a> {
    specversion: &'static str,
    id: &'a str,
    source: &'a str,
    #[serde(rename = "type")]
    kind: String,
    time: String,
    datacontenttype: &'static str,
    data: serde_json::Value,
}

/// The body sent for `event`, from `source` (the console's URL, or `repo-console`).
pub fn body(event: &ConsoleEvent, source: &str) -> Result<Vec<u8>, serde_json::Error> {
    // The event's data is kept as {"type": …, "data": {…}}: the inner object is the data.
    let tagged = serde_json::to_value(&event.data)?;
    let data = tagged.get("data").cloned().unwrap_or_default();
    serde_json::to_vec(&CloudEvent {
        specversion: "1.0",
        id: event.id.as_str(),
        source,
        kind: event.kind().cloudevents_type(),
        time: event.time.to_rfc3339_opts(SecondsFormat::Millis, true),
        datacontenttype: "application/json",
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::event::{EventData, EventId, RepositoryRef, SyncFailedData};
    use crate::domain::repository::TaskHref;

    #[test]
    fn an_event_is_a_cloudevents_1_0_document() {
        let event = ConsoleEvent {
            id: EventId::new("5f0c6d2e-1b9a-4a7e-9d6e-1f2a3b4c5d6e"),
            time: chrono::DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
                .unwrap()
                .into(),
            data: EventData::SyncFailed(SyncFailedData {
                repository: RepositoryRef {
                    uuid: "01a202de-e818-7629-a483-70ecc3240361".into(),
                    name: "base-os".into(),
                },
                task: TaskHref::new("/pulp/api/v3/tasks/t1/"),
                reason: "Cannot connect".into(),
            }),
        };
        let bytes = body(&event, "https://console.example.com").unwrap();
        let json: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "specversion": "1.0",
                "id": "5f0c6d2e-1b9a-4a7e-9d6e-1f2a3b4c5d6e",
                "source": "https://console.example.com",
                "type": "io.repo-console.sync.failed",
                "time": "2026-11-22T10:00:00.000Z",
                "datacontenttype": "application/json",
                "data": {
                    "repository": {"uuid": "01a202de-e818-7629-a483-70ecc3240361", "name": "base-os"},
                    "task": "/pulp/api/v3/tasks/t1/",
                    "reason": "Cannot connect"
                }
            })
        );
        assert_eq!(
            body(&event, "x").unwrap(),
            body(&event, "x").unwrap(),
            "the same bytes at every attempt"
        );
    }
}
