//! `log.format = "json"`: the real binary writes one JSON object per line, with the
//! request's span fields; an answer naming a correlation id finds Pulp's own words under it
//! in the log, and only there.

use crate::console_process::ConsoleProcess;
use crate::helpers::*;

#[tokio::test]
async fn json_logs_are_one_object_per_line_with_the_request_span() {
    let home = tempfile::tempdir().unwrap();
    let audit = home.path().join("audit.jsonl");
    let args = [
        "--log-format",
        "json",
        "--audit-path",
        audit.to_str().unwrap(),
    ];
    let console = ConsoleProcess::start(&args, &[], home.path());
    let reply = WebClient {
        address: console.address.clone(),
    }
    .get("/healthz")
    .await;
    assert_eq!(reply.status, 200);
    let answered = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        loop {
            let found = console
                .log_lines()
                .into_iter()
                .find(|l| l.contains("answered"));
            if let Some(line) = found {
                break line;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    })
    .await
    .expect("the request is logged");
    for line in console.log_lines() {
        serde_json::from_str::<serde_json::Value>(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    let answered: serde_json::Value = serde_json::from_str(&answered).unwrap();
    assert_eq!(answered["level"], "INFO");
    assert_eq!(answered["fields"]["status"], 200);
    assert_eq!(answered["span"]["route"], "/healthz");
    assert_eq!(answered["span"]["name"], "http_request");
}

/// Issue 43, item 7: a Pulp the console cannot reach (its host name, internal): the page
/// (an identified operator) and the API answer (anonymous) say so in the console's words
/// with the request's correlation id, never the host; the log line under that id holds it.
#[tokio::test]
async fn pulps_address_is_in_the_log_under_the_answers_correlation_id_never_in_the_answer() {
    let home = tempfile::tempdir().unwrap();
    let audit = home.path().join("audit.jsonl");
    let args = [
        "--log-format",
        "json",
        "--audit-path",
        audit.to_str().unwrap(),
    ];
    let host = "pulp.internal.invalid";
    let env = [(
        "REPO_CONSOLE_PULP_URL",
        "http://pulp.internal.invalid:24817",
    )];
    let console = ConsoleProcess::start(&args, &env, home.path());
    let client = WebClient {
        address: console.address.clone(),
    };
    for path in ["/", "/api/v1/repositories"] {
        let reply = client.get(path).await;
        assert_eq!(reply.status, 503, "{path}: {}", reply.body);
        assert!(!reply.body.contains(host), "{path}: {}", reply.body);
        assert!(
            reply.body.contains("Pulp is unreachable"),
            "{path}: {}",
            reply.body
        );
        let id = reply.header("x-correlation-id").to_owned();
        assert!(reply.body.contains(&id), "{path}: {}", reply.body);
        let logged = tokio::time::timeout(std::time::Duration::from_secs(5), async {
            loop {
                let found = console.log_lines().into_iter().find_map(|line| {
                    let json: serde_json::Value = serde_json::from_str(&line).ok()?;
                    let fields = &json["fields"];
                    (fields["correlation_id"] == id.as_str()).then(|| fields["detail"].clone())
                });
                if let Some(detail) = found {
                    break detail;
                }
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        })
        .await
        .unwrap_or_else(|_| panic!("{path}: no log line under {id}: {:?}", console.log_lines()));
        assert!(
            logged.as_str().unwrap_or_default().contains(host),
            "{path}: {logged}"
        );
    }
}
