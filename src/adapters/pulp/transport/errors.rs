//! Turning HTTP statuses, Pulp's error bodies and transport failures into
//! [`UpstreamError`]s an operator can act on, each logged in full where it is met (Pulp's
//! words and address stay in the log: see `ports/upstream_error.rs`).

use serde_json::Value;

use crate::adapters::pulp::transport::http::TransportError;
use crate::ports::UpstreamError;

/// Longest explanation kept from an error body.
const MAX_MESSAGE: usize = 500;

/// The error for a non-success status, with Pulp's explanation from the body.
pub(crate) fn status_error(status: u16, body: &[u8]) -> UpstreamError {
    let message = body_message(body).unwrap_or_else(|| "no explanation given".to_owned());
    match status {
        401 => UpstreamError::Auth(message),
        _ => UpstreamError::Http { status, message },
    }
    .logged()
}

/// [`status_error`] of a request to `url`: a 404 for an address that names no object (a
/// list, `status/`: Pulp's API root is wrong, not an object gone) says how to fix the
/// settings, the usual cause being a `pulp.base_url` that repeats the API's path.
pub(crate) fn status_error_at(status: u16, body: &[u8], url: &str) -> UpstreamError {
    match status_error(status, body) {
        UpstreamError::Http {
            status: 404,
            message,
        } if !names_an_object(url) => UpstreamError::Http {
            status: 404,
            message: format!(
                "{message}. Pulp has no {url}: pulp.base_url must be the server alone \
                     (e.g. https://pulp.example.com, without /pulp/api/v3/) and pulp.api_root \
                     Pulp's API root (/pulp/ by default); `repo-console config check` shows both"
            ),
        },
        other => other,
    }
}

/// Whether `url`'s path names one object (it holds a UUID), rather than a list or `status/`.
fn names_an_object(url: &str) -> bool {
    url.split(['/', '?'])
        .any(|segment| uuid::Uuid::parse_str(segment).is_ok())
}

/// Pulp's explanation inside an error body: `detail`, field errors
/// (`{"name": ["…"]}`), `non_field_errors`, `errors`, a bare list, or plain text/HTML.
pub(crate) fn body_message(body: &[u8]) -> Option<String> {
    let text = match serde_json::from_slice::<Value>(body) {
        Ok(json) => json_message(&json),
        Err(_) => plain_text(&String::from_utf8_lossy(body)),
    }?;
    Some(shorten(&text))
}

fn json_message(json: &Value) -> Option<String> {
    match json {
        Value::Object(map) => {
            if let Some(detail) = map.get("detail").and_then(flatten) {
                return Some(detail);
            }
            let parts: Vec<String> = map
                .iter()
                .filter_map(|(key, value)| {
                    let text = flatten(value)?;
                    Some(match key.as_str() {
                        "non_field_errors" | "errors" => text,
                        _ => format!("{key}: {text}"),
                    })
                })
                .collect();
            (!parts.is_empty()).then(|| parts.join("; "))
        }
        other => flatten(other),
    }
}

/// A JSON value as one line of text; lists are joined, nested objects recursed.
fn flatten(value: &Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::String(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().filter_map(flatten).collect();
            (!parts.is_empty()).then(|| parts.join(" "))
        }
        Value::Object(_) => json_message(value),
        other => Some(other.to_string()),
    }
}

/// Text of a non-JSON body: tags removed, whitespace collapsed.
fn plain_text(body: &str) -> Option<String> {
    let mut text = String::with_capacity(body.len());
    let mut in_tag = false;
    let mut in_title = false;
    let lower = body.to_ascii_lowercase();
    // An HTML page's <title> repeats its heading; drop it.
    let skip_title = lower.contains("<title>") && lower.contains("<body");
    for (i, c) in body.char_indices() {
        match c {
            '<' => {
                in_tag = true;
                let rest = &lower[i..];
                if rest.starts_with("<title") {
                    in_title = skip_title;
                } else if rest.starts_with("</title") {
                    in_title = false;
                }
            }
            '>' if in_tag => {
                in_tag = false;
                text.push(' ');
            }
            _ if in_tag || in_title => {}
            _ => text.push(c),
        }
    }
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!collapsed.is_empty()).then_some(collapsed)
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= MAX_MESSAGE {
        return text.to_owned();
    }
    let cut: String = text.chars().take(MAX_MESSAGE).collect();
    format!("{cut}\u{2026}")
}

/// The error for a request that got no response.
pub(crate) fn transport_error(err: TransportError) -> UpstreamError {
    transport_words(err).logged()
}

fn transport_words(err: TransportError) -> UpstreamError {
    match err {
        TransportError::Timeout { url, detail } => UpstreamError::Timeout(format!(
            "{url}: {detail}; the request may or may not have been carried out"
        )),
        TransportError::Refused { url } => UpstreamError::Unreachable(format!(
            "connection refused by {url}: is Pulp running there, and is the base URL right?"
        )),
        TransportError::Tls { url, detail } => UpstreamError::Unreachable(format!(
            "TLS handshake with {url} failed ({detail}): check the CA file or the server certificate"
        )),
        TransportError::Connect { url, detail } => {
            UpstreamError::Unreachable(format!("cannot connect to {url}: {detail}"))
        }
        // Anything past connecting (a reset, a connection closed before the answer): the
        // request may have reached Pulp, so this is not "unreachable".
        TransportError::Other { url, detail } => {
            UpstreamError::Interrupted(format!("request to {url}: {detail}"))
        }
    }
}

/// The error for a success body the console cannot read.
pub(crate) fn decode_error(what: &str, err: &serde_json::Error) -> UpstreamError {
    UpstreamError::BadResponse(format!("{what}: {err}")).logged()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(body: &str) -> String {
        body_message(body.as_bytes()).expect("a message")
    }

    #[test]
    fn detail_is_the_message() {
        assert_eq!(
            message(r#"{"detail": "No RpmRepository matches the given query."}"#),
            "No RpmRepository matches the given query."
        );
    }

    #[test]
    fn field_errors_name_their_field() {
        assert_eq!(
            message(r#"{"name": ["This field must be unique."]}"#),
            "name: This field must be unique."
        );
        let two = message(
            r#"{"base_path": ["This field is required."], "name": ["This field is required."]}"#,
        );
        assert!(two.contains("base_path: This field is required."), "{two}");
        assert!(two.contains("name: This field is required."), "{two}");
    }

    #[test]
    fn non_field_errors_and_filter_errors_are_shown_bare() {
        assert_eq!(
            message(
                r#"{"non_field_errors": ["Only one of the attributes 'repository' and 'publication' may be used simultaneously."]}"#
            ),
            "Only one of the attributes 'repository' and 'publication' may be used simultaneously."
        );
        assert_eq!(
            message(r#"{"errors": ["Invalid Filter: 'publication'"]}"#),
            "Invalid Filter: 'publication'"
        );
    }

    #[test]
    fn a_bare_list_is_joined() {
        assert_eq!(
            message(r#"["The repository version cannot be deleted because it is distributed."]"#),
            "The repository version cannot be deleted because it is distributed."
        );
    }

    #[test]
    fn an_html_page_becomes_its_text() {
        let page = "<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>";
        assert_eq!(
            message(page),
            "Not Found The requested resource was not found on this server."
        );
    }

    #[test]
    fn an_empty_body_has_no_message() {
        assert_eq!(body_message(b""), None);
        assert_eq!(body_message(b"{}"), None);
        assert_eq!(
            status_error(500, b""),
            UpstreamError::Http {
                status: 500,
                message: "no explanation given".into()
            }
        );
    }

    #[test]
    fn status_401_is_an_authentication_failure() {
        assert_eq!(
            status_error(401, br#"{"detail": "Invalid username/password."}"#),
            UpstreamError::Auth("Invalid username/password.".into())
        );
        assert!(matches!(
            status_error(403, b"{}"),
            UpstreamError::Http { status: 403, .. }
        ));
    }

    #[test]
    fn long_bodies_are_shortened() {
        let long = format!("{{\"detail\": \"{}\"}}", "x".repeat(2000));
        assert!(message(&long).chars().count() <= MAX_MESSAGE + 1);
    }

    #[test]
    fn transport_failures_name_the_url() {
        let refused = transport_error(TransportError::Refused {
            url: "http://127.0.0.1:9/pulp/".into(),
        });
        assert!(
            matches!(&refused, UpstreamError::Unreachable(m) if m.contains("http://127.0.0.1:9/pulp/"))
        );
        let tls = transport_error(TransportError::Tls {
            url: "https://x/".into(),
            detail: "UnknownIssuer".into(),
        });
        assert!(matches!(&tls, UpstreamError::Unreachable(m) if m.contains("TLS")));
        let slow = transport_error(TransportError::Timeout {
            url: "http://x/".into(),
            detail: "d".into(),
        });
        assert!(matches!(slow, UpstreamError::Timeout(_)));
    }

    #[test]
    fn a_404_of_a_list_hints_at_the_base_url_and_a_404_of_an_object_does_not() {
        let root = "https://pulp.example.com/pulp/api/v3/pulp/api/v3/repositories/rpm/rpm/?limit=1";
        // The hint is in the details the log keeps (answers say the console's words only).
        let hinted = status_error_at(404, b"<h1>Not Found</h1>", root).detail();
        assert!(
            hinted.starts_with("Pulp answered HTTP 404: Not Found."),
            "{hinted}"
        );
        assert!(
            hinted.contains("pulp.base_url must be the server alone"),
            "{hinted}"
        );
        assert!(hinted.contains(root), "{hinted}");
        let object = "https://pulp.example.com/pulp/api/v3/repositories/rpm/rpm/01a202de-0000-7000-8000-000000000010/";
        let gone = status_error_at(404, br#"{"detail": "Not found."}"#, object).detail();
        assert_eq!(gone, "Pulp answered HTTP 404: Not found.");
        assert!(status_error_at(404, b"", root).is_not_found());
    }
}
