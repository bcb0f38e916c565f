//! `log.format = "json"`: the real binary writes one JSON object per line, with the
//! request's span fields.

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
