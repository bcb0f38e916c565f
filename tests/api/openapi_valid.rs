//! Issue 45: the OpenAPI document the console serves (`/api/v1/openapi.json`) is valid as
//! `openapi-spec-validator` from PyPI says (the version pinned in
//! tests/api/openapi-spec-validator.version, installed by scripts/test.sh into a cached
//! virtualenv named by RC_TEST_OPENAPI_VALIDATOR_PYTHON): every `operationId` unique, every
//! query parameter declared `in: query`. The test is `#[ignore = "needs openapi-spec-validator"]`:
//! asked to run without the package, it fails. The validator is also shown able to fail: the
//! same document with a repeated `operationId` is refused.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::helpers::*;

/// Reads a document on stdin and validates it; prints the validator's message and exits 1
/// when it is not valid.
const VALIDATOR: &str = r#"
import json, sys
from openapi_spec_validator import validate
from openapi_spec_validator.validation.exceptions import OpenAPIValidationError
try:
    validate(json.load(sys.stdin))
except OpenAPIValidationError as error:
    print(error, file=sys.stderr)
    sys.exit(1)
"#;

/// The Python with `openapi-spec-validator`; fails the test where there is none.
fn python() -> String {
    std::env::var("RC_TEST_OPENAPI_VALIDATOR_PYTHON")
        .ok()
        .filter(|p| std::path::Path::new(p).exists())
        .unwrap_or_else(|| {
            crate::needs::missing(
                "openapi-spec-validator",
                "no RC_TEST_OPENAPI_VALIDATOR_PYTHON naming a Python that has it (scripts/test.sh \
                 installs the pinned version into a cached virtualenv)",
            )
        })
}

/// The validator's verdict on `doc`: `Err` with its message when it refuses it.
fn validate(doc: &Value) -> Result<(), String> {
    let python = python();
    let mut child = Command::new(&python)
        .args(["-c", VALIDATOR])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{python}: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(doc.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    match out.status.code() {
        Some(0) => Ok(()),
        Some(1) => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
        _ => panic!(
            "the validator did not run: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

#[tokio::test]
#[ignore = "needs openapi-spec-validator"]
async fn the_served_openapi_document_passes_openapi_spec_validator() {
    let app = spawn_app().await;
    let reply = app.get("/api/v1/openapi.json").await;
    assert_eq!(reply.status, 200);
    let doc: Value = serde_json::from_str(&reply.body).unwrap();
    if let Err(message) = validate(&doc) {
        panic!("openapi-spec-validator refuses /api/v1/openapi.json:\n{message}");
    }

    // The validator can fail: a repeated operationId is refused.
    let mut repeated = doc.clone();
    let id = repeated["paths"]["/api/v1/repositories"]["get"]["operationId"].clone();
    repeated["paths"]["/api/v1/releases"]["get"]["operationId"] = id;
    let refused = validate(&repeated).expect_err("a repeated operationId is refused");
    assert!(refused.contains("not unique"), "{refused}");
}

#[tokio::test]
async fn every_operation_has_its_own_id_and_query_parameters_are_in_the_query() {
    let app = spawn_app().await;
    let doc: Value = serde_json::from_str(&app.get("/api/v1/openapi.json").await.body).unwrap();
    let mut ids = std::collections::BTreeSet::new();
    for (path, operations) in doc["paths"].as_object().unwrap() {
        for (method, operation) in operations.as_object().unwrap() {
            let id = operation["operationId"].as_str().unwrap_or_default();
            assert!(!id.is_empty(), "{method} {path} has no operationId");
            assert!(ids.insert(id.to_owned()), "{method} {path}: {id} repeated");
            for parameter in operation["parameters"].as_array().into_iter().flatten() {
                let name = parameter["name"].as_str().unwrap();
                if parameter["in"] == "path" {
                    assert!(
                        path.contains(&format!("{{{name}}}")),
                        "{method} {path}: {name} declared in the path, which has no {{{name}}}"
                    );
                }
            }
        }
    }
}
