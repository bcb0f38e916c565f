//! The JSON API under /api/v1 (issue 25), over HTTP against the in-memory upstream: reads,
//! a deploy confirmed by `expected_current` (right and stale), read back from the audit log;
//! bearer tokens (none, a wrong one, a right one) and the policy; bad input; approvals; and
//! the OpenAPI document, checked against what the server answers.

use std::collections::BTreeMap;
use std::num::NonZeroU32;

use std::sync::Arc;

use serde_json::{json, Value};

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::identity::PersonName;
use repo_console::domain::policy::{Allowed, Approvals, Policy, Subject};

use crate::helpers::*;
use crate::policy::Guarded;

pub(crate) const CI: &str = "ci-token-0123456789";
pub(crate) const LEAD: &str = "lead-token-9876543210";
/// A pipeline's token that reports checks only.
const CHECKER: &str = "checker-token-5555555555";

fn token(name: &str, text: &str, groups: &[&str]) -> ApiToken {
    let every = ["read", "sync", "deploy:*", "approve:*"];
    crate::tokens::token(name, text, groups, &every).owned_by(PersonName::new(name).unwrap())
}

/// The fixture's console with two tokens: ci-pipeline (group ci) and lead (group release),
/// and `policy`.
pub(crate) async fn spawn(policy: Policy) -> Guarded {
    let callers = BearerTokens::new(
        vec![
            token("ci-pipeline", CI, &["ci"]),
            token("lead", LEAD, &["release"]),
            crate::tokens::token("checker", CHECKER, &[], &["check:*"]),
        ],
        None,
        Arc::new(SystemClock),
    );
    let schedules = Arc::new(repo_console::adapters::memory::MemoryScheduleStore::default());
    fixture_app()
        .tokens(callers)
        .policy(policy)
        .requests()
        .configure(move |state| state.schedules(schedules, chrono::Duration::minutes(10)))
        .spawn()
        .await
}

pub(crate) async fn call(
    app: &Guarded,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Reply {
    let bearer = token.map(|t| format!("Bearer {t}"));
    let mut headers = vec![("content-type", "application/json")];
    if let Some(bearer) = &bearer {
        headers.push(("authorization", bearer.as_str()));
    }
    app.client.send(method, path, &headers, body).await
}

pub(crate) fn json_of(reply: &Reply) -> Value {
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

fn error_code(reply: &Reply) -> String {
    json_of(reply)["error"]["code"].as_str().unwrap().to_owned()
}

pub(crate) fn deployments(app: &Guarded) -> String {
    format!("/api/v1/repositories/{}/deployments", app.fixture.base_os)
}

fn serving(app: &Guarded) -> Option<u64> {
    app.memory.serving_version("base-os-prod").map(|n| n.get())
}

#[tokio::test]
async fn reads_answer_the_pages_facts_as_json() {
    let app = spawn(Policy::default()).await;
    let list = call(&app, "GET", "/api/v1/repositories", None, "").await;
    assert_eq!(list.status, 200, "{}", list.body);
    let list = json_of(&list);
    let base_os = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "base-os")
        .expect("base-os listed");
    assert_eq!(base_os["uuid"], app.fixture.base_os.as_str());
    assert_eq!(base_os["latest_version"], 4);
    assert_eq!(base_os["environments"][0]["name"], "production");
    assert_eq!(base_os["environments"][0]["serving"], 2);

    let one = call(
        &app,
        "GET",
        &format!("/api/v1/repositories/{}", app.fixture.base_os),
        None,
        "",
    )
    .await;
    assert_eq!(one.status, 200, "{}", one.body);
    let one = json_of(&one);
    assert_eq!(one["verification"]["badge"], "verified");
    assert_eq!(one["versions"], 5);
    assert_eq!(one["environments"][0]["serving"], 2);
    assert_eq!(one["environments"][0]["drift"], false);

    let versions = call(
        &app,
        "GET",
        &format!("/api/v1/repositories/{}/versions", app.fixture.base_os),
        None,
        "",
    )
    .await;
    let versions = json_of(&versions);
    let numbers: Vec<u64> = versions["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["number"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [4, 3, 2, 1, 0], "newest first");
    assert_eq!(versions["items"][2]["environments"], json!(["production"]));
    assert_eq!(versions["items"][0]["environments"], json!([]));
    assert_eq!(versions["items"][1]["change"], -2, "v3: +1 -3");

    let changes = call(
        &app,
        "GET",
        &format!(
            "/api/v1/repositories/{}/changes?from=2&to=4",
            app.fixture.base_os
        ),
        None,
        "",
    )
    .await;
    assert_eq!(changes.status, 200, "{}", changes.body);
    assert_eq!(changes.header("content-type"), "application/json");
    let changes = json_of(&changes);
    assert_eq!(
        (changes["from"].clone(), changes["to"].clone()),
        (json!(2), json!(4))
    );
    let kinds: Vec<(String, String)> = changes["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().into(),
                p["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        kinds.contains(&("zlib".into(), "added".into())),
        "{kinds:?}"
    );

    let unknown = call(&app, "GET", "/api/v1/repositories/not-a-uuid", None, "").await;
    assert_eq!(
        (unknown.status, error_code(&unknown)),
        (404, "not_found".into())
    );
    let bad = call(
        &app,
        "GET",
        &format!(
            "/api/v1/repositories/{}/changes?from=x&to=4",
            app.fixture.base_os
        ),
        None,
        "",
    )
    .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert!(json_of(&bad)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("'from'"));
}

#[tokio::test]
async fn a_deploy_needs_a_token_and_the_version_the_caller_expects_then_reads_back() {
    let app = spawn(Policy::default()).await;
    let body = json!({"version": 4, "environment": "production", "expected_current": 2, "reason": "nightly"}).to_string();
    let anonymous = call(&app, "POST", &deployments(&app), None, &body).await;
    assert_eq!(
        (anonymous.status, error_code(&anonymous)),
        (401, "unauthorized".into())
    );
    let wrong = call(&app, "POST", &deployments(&app), Some("guess"), &body).await;
    assert_eq!(wrong.status, 401, "{}", wrong.body);
    assert!(
        wrong.body.contains("not one of the console's API tokens"),
        "{}",
        wrong.body
    );

    let stale = json!({"version": 4, "expected_current": 1}).to_string();
    let moved = call(&app, "POST", &deployments(&app), Some(CI), &stale).await;
    assert_eq!(
        (moved.status, error_code(&moved)),
        (409, "moved".into()),
        "{}",
        moved.body
    );
    assert_eq!(app.writes(), 0, "nothing changed");

    let deployed = call(&app, "POST", &deployments(&app), Some(CI), &body).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    let outcome = json_of(&deployed);
    assert_eq!(outcome["outcome"], "deployed");
    assert_eq!(outcome["production_changed"], "yes");
    assert_eq!(
        (outcome["from"].clone(), outcome["to"].clone()),
        (json!(2), json!(4))
    );
    assert_eq!(serving(&app), Some(4));
    let id = outcome["deploy_id"].as_str().unwrap();

    let back = call(&app, "GET", &format!("/api/v1/deployments/{id}"), None, "").await;
    assert_eq!(back.status, 200, "{}", back.body);
    let back = json_of(&back);
    assert_eq!(back["outcome"], "deployed");
    assert_eq!(
        (outcome["changed"].as_str(), back["changed"].as_str()),
        (Some("yes"), Some("yes")),
        "\"changed\" for any environment"
    );
    assert_eq!(
        back["operator"], "ci-pipeline",
        "the token's name is the operator"
    );
    assert_eq!(back["reason"], "nightly");
    assert_eq!(back["to"], 4);
    assert!(back["finished"].is_string());
    let none = call(&app, "GET", "/api/v1/deployments/no-such-deploy", None, "").await;
    assert_eq!(none.status, 404);

    let again = call(
        &app,
        "POST",
        &deployments(&app),
        Some(CI),
        &json!({"version": 4, "expected_current": 4}).to_string(),
    )
    .await;
    assert_eq!(
        (again.status, error_code(&again)),
        (409, "already_deployed".into())
    );
}

#[tokio::test]
async fn bad_input_is_refused_with_a_message_and_changes_nothing() {
    let app = spawn(Policy::default()).await;
    let cases: [(&str, u16, &str); 7] = [
        ("{\"version\": 4,", 400, "not JSON"),
        (
            r#"{"version": 4, "expected_current": 2, "colour": "red"}"#,
            422,
            "unknown field",
        ),
        (
            r#"{"version": "four", "expected_current": 2}"#,
            422,
            "invalid type",
        ),
        (r#"{"expected_current": 2}"#, 422, "missing field"),
        (r#"{"version": 4}"#, 422, "expected_current"),
        (
            r#"{"version": 4, "expected_current": 2, "environment": "moon"}"#,
            404,
            "no environment 'moon'",
        ),
        (r#"{"version": 99, "expected_current": 2}"#, 404, "v99"),
    ];
    for (body, status, says) in cases {
        let reply = call(&app, "POST", &deployments(&app), Some(CI), body).await;
        assert_eq!(reply.status, status, "{body}: {}", reply.body);
        let message = json_of(&reply)["error"]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(message.contains(says), "{body}: {message}");
    }
    let form = app
        .client
        .send(
            "POST",
            &deployments(&app),
            &[
                ("content-type", "text/plain"),
                ("authorization", &format!("Bearer {CI}")),
            ],
            "version=4",
        )
        .await;
    assert_eq!(form.status, 415, "{}", form.body);
    assert_eq!(app.writes(), 0);
    assert_eq!(serving(&app), Some(2));
}

#[tokio::test]
async fn the_policy_applies_to_tokens_and_approvals_go_through_the_api() {
    let production = EnvironmentName::production();
    let subjects = |t: &[&str]| {
        t.iter()
            .map(|s| Subject::parse(s).unwrap())
            .collect::<Vec<_>>()
    };
    let policy = Policy::new(
        BTreeMap::from([(
            production.clone(),
            Allowed::Only(subjects(&["token:ci-pipeline"])),
        )]),
        Allowed::Everyone,
    )
    .with_approvals(BTreeMap::from([(
        production,
        Approvals::new(NonZeroU32::new(1).unwrap(), subjects(&["group:release"])).unwrap(),
    )]));
    let app = spawn(policy).await;
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let lead = call(&app, "POST", &deployments(&app), Some(LEAD), &body).await;
    assert_eq!(
        (lead.status, error_code(&lead)),
        (403, "forbidden".into()),
        "{}",
        lead.body
    );
    assert!(
        lead.body
            .contains("only token:ci-pipeline may deploy to production"),
        "{}",
        lead.body
    );

    let asked = call(&app, "POST", &deployments(&app), Some(CI), &body).await;
    assert_eq!(asked.status, 202, "{}", asked.body);
    let request = json_of(&asked)["request"].clone();
    assert_eq!(request["state"], "pending");
    assert_eq!(request["requester"], "ci-pipeline");
    assert_eq!(request["asked_against"], 2);
    assert_eq!(serving(&app), Some(2));
    let id = request["id"].as_str().unwrap();

    let listed = json_of(&call(&app, "GET", "/api/v1/requests", None, "").await);
    assert_eq!(listed["items"][0]["id"], id);
    let own = call(
        &app,
        "POST",
        &format!("/api/v1/requests/{id}/approve"),
        Some(CI),
        "",
    )
    .await;
    assert_eq!(own.status, 403, "{}", own.body);
    let approved = call(
        &app,
        "POST",
        &format!("/api/v1/requests/{id}/approve"),
        Some(LEAD),
        "",
    )
    .await;
    assert_eq!(approved.status, 200, "{}", approved.body);
    assert_eq!(json_of(&approved)["outcome"], "deployed");
    assert_eq!(serving(&app), Some(4));
}

#[tokio::test]
async fn a_bearer_request_is_not_held_to_the_pages_origin_rule_but_others_are() {
    let app = spawn(Policy::default()).await;
    let body = json!({"version": 4, "expected_current": 2}).to_string();
    let foreign = [
        ("content-type", "application/json"),
        ("origin", "https://evil.example"),
    ];
    let forged = app
        .client
        .send("POST", &deployments(&app), &foreign, &body)
        .await;
    assert_eq!(forged.status, 403, "{}", forged.body);
    let bearer = format!("Bearer {CI}");
    let mut with_token = foreign.to_vec();
    with_token.push(("authorization", bearer.as_str()));
    let pipeline = app
        .client
        .send("POST", &deployments(&app), &with_token, &body)
        .await;
    assert_eq!(pipeline.status, 200, "{}", pipeline.body);
}

/// Whether `value` has the properties `schema` requires, of the types it declares
/// (`$ref`s into the components followed), recursively into objects and arrays.
fn conforms(doc: &Value, schema: &Value, value: &Value, at: &str) -> Result<(), String> {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap();
        return conforms(doc, &doc["components"]["schemas"][name], value, at);
    }
    if let Some(choices) = schema["oneOf"].as_array().or(schema["anyOf"].as_array()) {
        return choices
            .iter()
            .any(|c| conforms(doc, c, value, at).is_ok())
            .then_some(())
            .ok_or_else(|| format!("{at}: {value} fits none of {schema}"));
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return Ok(()),
    };
    let fits = |t: &str| match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => true,
    };
    if !types.iter().any(|t| fits(t)) {
        return Err(format!("{at}: {value} is not {types:?}"));
    }
    if let Some(object) = value.as_object() {
        for required in schema["required"].as_array().into_iter().flatten() {
            let key = required.as_str().unwrap();
            if !object.contains_key(key) {
                return Err(format!("{at}: '{key}' is missing"));
            }
        }
        for (key, property) in schema["properties"].as_object().into_iter().flatten() {
            if let Some(v) = object.get(key) {
                conforms(doc, property, v, &format!("{at}.{key}"))?;
            }
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (i, v) in array.iter().enumerate() {
            conforms(doc, items, v, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

/// Checks the answer to `method path` against the document: its status is documented, and
/// its JSON body fits the schema documented for that status.
pub(crate) fn check(
    doc: &Value,
    template: &str,
    method: &str,
    reply: &Reply,
) -> Result<(), String> {
    let operation = &doc["paths"][template][method];
    assert!(operation.is_object(), "{method} {template} is documented");
    let response = &operation["responses"][reply.status.to_string()];
    if !response.is_object() {
        return Err(format!(
            "{method} {template}: status {} is not documented: {}",
            reply.status, reply.body
        ));
    }
    let schema = &response["content"]["application/json"]["schema"];
    let body: Value =
        serde_json::from_str(&reply.body).map_err(|e| format!("{method} {template}: {e}"))?;
    conforms(doc, schema, &body, &format!("{method} {template}"))
}

#[tokio::test]
async fn the_openapi_document_covers_every_route_and_matches_the_answers() {
    let app = spawn(Policy::default()).await;
    let doc = call(&app, "GET", "/api/v1/openapi.json", None, "").await;
    assert_eq!(doc.status, 200);
    let doc = json_of(&doc);
    assert!(
        doc["openapi"].as_str().unwrap().starts_with("3.1"),
        "{}",
        doc["openapi"]
    );
    let documented: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, ops)| {
            ops.as_object()
                .unwrap()
                .keys()
                .map(move |m| format!("{m} {path}"))
        })
        .collect();
    let routes = [
        "get /api/v1/repositories",
        "get /api/v1/repositories/{uuid}",
        "get /api/v1/repositories/{uuid}/versions",
        "get /api/v1/repositories/{uuid}/changes",
        "post /api/v1/repositories/{uuid}/sync",
        "post /api/v1/repositories/{uuid}/deployments",
        "get /api/v1/deployments/{deploy_id}",
        "get /api/v1/requests",
        "post /api/v1/requests/{id}/approve",
        "get /api/v1/releases",
        "get /api/v1/releases/{name}",
        "post /api/v1/releases/{name}/promotions",
        "get /api/v1/schedules",
        "post /api/v1/schedules/{id}/cancel",
        "get /api/v1/checks",
        "post /api/v1/checks",
        "get /api/v1/exposure",
        "get /api/v1/openapi.json",
        "get /api/v1/deployments/{deploy_id}/evidence",
        "get /api/v1/evidence/keys",
        "get /api/v1/edges",
        "post /api/v1/edges/{name}/replicate",
        "get /api/v1/insights",
        "post /api/v1/repositories/{uuid}/environments/{env}/unpin",
    ];
    for route in routes {
        assert!(
            documented.contains(&route.to_owned()),
            "{route} not in {documented:?}"
        );
    }
    assert_eq!(documented.len(), routes.len(), "{documented:?}");

    let base = app.fixture.base_os.as_str();
    let mut checked = Vec::new();
    let mut run = |template: &str, method: &str, reply: Reply| {
        checked.push(check(&doc, template, method, &reply));
    };
    run(
        "/api/v1/repositories",
        "get",
        call(&app, "GET", "/api/v1/repositories", None, "").await,
    );
    run(
        "/api/v1/repositories/{uuid}",
        "get",
        call(
            &app,
            "GET",
            &format!("/api/v1/repositories/{base}"),
            None,
            "",
        )
        .await,
    );
    run(
        "/api/v1/repositories/{uuid}",
        "get",
        call(&app, "GET", "/api/v1/repositories/x", None, "").await,
    );
    run(
        "/api/v1/repositories/{uuid}/versions",
        "get",
        call(
            &app,
            "GET",
            &format!("/api/v1/repositories/{base}/versions?page=0"),
            None,
            "",
        )
        .await,
    );
    run(
        "/api/v1/repositories/{uuid}/versions",
        "get",
        call(
            &app,
            "GET",
            &format!("/api/v1/repositories/{base}/versions?page=x"),
            None,
            "",
        )
        .await,
    );
    run(
        "/api/v1/requests",
        "get",
        call(&app, "GET", "/api/v1/requests", None, "").await,
    );
    run(
        "/api/v1/schedules",
        "get",
        call(&app, "GET", "/api/v1/schedules", None, "").await,
    );
    run(
        "/api/v1/insights",
        "get",
        call(&app, "GET", "/api/v1/insights?days=7", None, "").await,
    );
    run(
        "/api/v1/insights",
        "get",
        call(&app, "GET", "/api/v1/insights?days=0", None, "").await,
    );
    run(
        "/api/v1/schedules/{id}/cancel",
        "post",
        call(&app, "POST", "/api/v1/schedules/none/cancel", None, "").await,
    );
    let unpin = format!("/api/v1/repositories/{base}/environments/production/unpin");
    for token in [None, Some(CI)] {
        run(
            "/api/v1/repositories/{uuid}/environments/{env}/unpin",
            "post",
            call(
                &app,
                "POST",
                &unpin,
                token,
                r#"{"reason": "nothing pinned"}"#,
            )
            .await,
        );
    }
    let deploy = format!("/api/v1/repositories/{base}/deployments");
    run(
        "/api/v1/repositories/{uuid}/deployments",
        "post",
        call(&app, "POST", &deploy, None, "{}").await,
    );
    run(
        "/api/v1/repositories/{uuid}/deployments",
        "post",
        call(&app, "POST", &deploy, Some(CI), "{").await,
    );
    run(
        "/api/v1/repositories/{uuid}/deployments",
        "post",
        call(
            &app,
            "POST",
            &deploy,
            Some(CI),
            r#"{"version": 3, "expected_current": 0}"#,
        )
        .await,
    );
    let deployed = call(
        &app,
        "POST",
        &deploy,
        Some(CI),
        r#"{"version": 3, "expected_current": 2}"#,
    )
    .await;
    let id = json_of(&deployed)["deploy_id"].as_str().unwrap().to_owned();
    run("/api/v1/repositories/{uuid}/deployments", "post", deployed);
    run(
        "/api/v1/deployments/{deploy_id}",
        "get",
        call(&app, "GET", &format!("/api/v1/deployments/{id}"), None, "").await,
    );
    run(
        "/api/v1/deployments/{deploy_id}",
        "get",
        call(&app, "GET", "/api/v1/deployments/none", None, "").await,
    );
    run(
        "/api/v1/repositories/{uuid}/sync",
        "post",
        call(
            &app,
            "POST",
            &format!("/api/v1/repositories/{base}/sync"),
            Some(CI),
            "",
        )
        .await,
    );
    run(
        "/api/v1/requests/{id}/approve",
        "post",
        call(&app, "POST", "/api/v1/requests/none/approve", Some(CI), "").await,
    );
    run(
        "/api/v1/releases",
        "get",
        call(&app, "GET", "/api/v1/releases", None, "").await,
    );
    run(
        "/api/v1/releases/{name}",
        "get",
        call(&app, "GET", "/api/v1/releases/none", None, "").await,
    );
    run(
        "/api/v1/releases/{name}/promotions",
        "post",
        call(
            &app,
            "POST",
            "/api/v1/releases/none/promotions",
            Some(CI),
            "{}",
        )
        .await,
    );
    let scheduled = call(
        &app,
        "POST",
        &deploy,
        Some(CI),
        r#"{"version": 4, "expected_current": 3, "at": "2026-11-23T10:00:00Z"}"#,
    )
    .await;
    assert_eq!(scheduled.status, 202, "{}", scheduled.body);
    let schedule = json_of(&scheduled)["schedule"]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    run("/api/v1/repositories/{uuid}/deployments", "post", scheduled);
    run(
        "/api/v1/schedules",
        "get",
        call(&app, "GET", "/api/v1/schedules", None, "").await,
    );
    run(
        "/api/v1/schedules/{id}/cancel",
        "post",
        call(
            &app,
            "POST",
            &format!("/api/v1/schedules/{schedule}/cancel"),
            Some(CI),
            "",
        )
        .await,
    );
    let check = format!(
        r#"{{"repository": "{base}", "environment": "production", "version": 3, "name": "smoke", "passed": true}}"#
    );
    run(
        "/api/v1/checks",
        "post",
        call(&app, "POST", "/api/v1/checks", Some(CI), &check).await,
    );
    run(
        "/api/v1/checks",
        "post",
        call(&app, "POST", "/api/v1/checks", Some(CHECKER), &check).await,
    );
    run(
        "/api/v1/checks",
        "get",
        call(
            &app,
            "GET",
            &format!("/api/v1/checks?repository={base}"),
            None,
            "",
        )
        .await,
    );
    run(
        "/api/v1/checks",
        "get",
        call(&app, "GET", "/api/v1/checks?repository=nope", None, "").await,
    );
    for (query, token) in [
        ("package=hello&below=1.1", Some(CI)),
        ("package=hello", None),
        ("cve=CVE-2026-0001", None),
        ("package=hello&cve=CVE-2026-0001", None),
        ("advisory=NOPE-1", None),
    ] {
        let path = format!("/api/v1/exposure?{query}");
        run(
            "/api/v1/exposure",
            "get",
            call(&app, "GET", &path, token, "").await,
        );
    }
    let failures: Vec<String> = checked.into_iter().filter_map(Result::err).collect();
    assert!(failures.is_empty(), "{failures:#?}");
}
