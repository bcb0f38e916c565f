//! The API reference (`/api/docs`): the console's OpenAPI document rendered as a page, with
//! no script and nothing from outside: the operations by tag (`data-operation`, their
//! `operationId`, each an anchor), each with its parameters, body, security and answers,
//! then every schema (`data-schema`, anchored `schema-<Name>`) with its fields. The document
//! itself stays at `/api/v1/openapi.json`, for generators and validators.

use maud::{html, Markup};
use serde_json::Value;

use super::layout::{back_link, page};

/// The HTTP methods of a path item, in the order shown.
const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// The whole page, from the OpenAPI document as JSON.
pub fn api_reference_page(doc: &Value) -> Markup {
    let operations = operations(doc);
    let tags: Vec<&str> = doc["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str())
        .collect();
    page(
        "API reference",
        html! {
            div.title-row { (back_link()) h1 { "API reference" } }
            p { (prose(doc["info"]["description"].as_str().unwrap_or_default())) }
            p.muted {
                "Version " (doc["info"]["version"].as_str().unwrap_or_default())
                ". Every path is under " code { "/api/v1" } ", JSON in and out; a write needs a bearer token ("
                code { "Authorization: Bearer …" } ") or the trusted proxy's identity. The same document for tools: "
                a href="/api/v1/openapi.json" data-openapi-link { "openapi.json" } " (OpenAPI " (doc["openapi"].as_str().unwrap_or_default()) ")."
            }
            nav.api-contents aria-label="Operations" {
                @for tag in &tags {
                    h2 { (tag) }
                    ul {
                        @for op in operations.iter().filter(|o| o.tag() == *tag) {
                            li { a href={ "#" (op.id()) } { code { (op.method.to_uppercase()) " " (op.path) } } " " (prose(&first_line(op.summary()))) }
                        }
                    }
                }
            }
            h2 { "Operations" }
            @for op in &operations { (operation(op)) }
            h2 id="schemas" { "Schemas" }
            @if let Some(schemas) = doc["components"]["schemas"].as_object() {
                @for (name, schema) in schemas { (schema_section(name, schema)) }
            }
        },
    )
}

/// One operation of the document.
struct Operation<'a> {
    method: &'a str,
    path: &'a str,
    body: &'a Value,
}

impl Operation<'_> {
    fn id(&self) -> &str {
        self.body["operationId"].as_str().unwrap_or_default()
    }
    fn tag(&self) -> &str {
        self.body["tags"][0].as_str().unwrap_or_default()
    }
    fn summary(&self) -> &str {
        self.body["summary"].as_str().unwrap_or_default()
    }
}

fn operations(doc: &Value) -> Vec<Operation<'_>> {
    let Some(paths) = doc["paths"].as_object() else {
        return Vec::new();
    };
    paths
        .iter()
        .flat_map(|(path, item)| {
            METHODS.iter().filter_map(move |method| {
                let body = item.get(*method)?;
                Some(Operation { method, path, body })
            })
        })
        .collect()
}

fn operation(op: &Operation) -> Markup {
    let parameters: Vec<&Value> = op.body["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .collect();
    let secured = op.body["security"]
        .as_array()
        .is_some_and(|s| !s.is_empty());
    html! {
        section.api-operation id=(op.id()) data-operation=(op.id()) aria-labelledby={ (op.id()) "-title" } {
            h3 id={ (op.id()) "-title" } {
                span.api-method data-method=(op.method) { (op.method.to_uppercase()) } " " code { (op.path) }
            }
            p { (prose(op.summary())) }
            p.muted { "Operation " code { (op.id()) } @if secured { "; needs a caller (bearer token or the proxy's identity)" } "." }
            @if !parameters.is_empty() {
                div.table-wrap { table.api-table {
                    caption { "Parameters" }
                    thead { tr { th scope="col" { "Name" } th scope="col" { "In" } th scope="col" { "Type" } th scope="col" { "Description" } } }
                    tbody {
                        @for p in &parameters {
                            tr data-parameter=(p["name"].as_str().unwrap_or_default()) data-in=(p["in"].as_str().unwrap_or_default()) {
                                td { code { (p["name"].as_str().unwrap_or_default()) } @if p["required"] == true { " " span.muted { "required" } } }
                                td { (p["in"].as_str().unwrap_or_default()) }
                                td { (type_of(&p["schema"])) }
                                td { (prose(p["description"].as_str().unwrap_or_default())) }
                            }
                        }
                    }
                } }
            }
            @if let Some(schema) = json_schema(&op.body["requestBody"]) {
                p { "Body: " (type_of(schema)) }
            }
            div.table-wrap { table.api-table {
                caption { "Answers" }
                thead { tr { th scope="col" { "Status" } th scope="col" { "Body" } th scope="col" { "When" } } }
                tbody {
                    @if let Some(responses) = op.body["responses"].as_object() {
                        @for (status, response) in responses {
                            tr data-status=(status) {
                                td { (status) }
                                td { @if let Some(schema) = json_schema(response) { (type_of(schema)) } @else { span.muted { "none" } } }
                                td { (prose(&when(status, response))) }
                            }
                        }
                    }
                }
            } }
        }
    }
}

/// The JSON schema of a request body or response, if it has one.
fn json_schema(holder: &Value) -> Option<&Value> {
    let content = holder["content"].as_object()?;
    content.values().next().map(|media| &media["schema"])
}

/// A response's description, or the status's reason where the document gives none.
fn when(status: &str, response: &Value) -> String {
    match response["description"].as_str().filter(|d| !d.is_empty()) {
        Some(description) => description.to_owned(),
        None => status
            .parse::<u16>()
            .ok()
            .and_then(|code| axum::http::StatusCode::from_u16(code).ok())
            .and_then(|code| code.canonical_reason())
            .unwrap_or_default()
            .to_owned(),
    }
}

fn schema_section(name: &str, schema: &Value) -> Markup {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    html! {
        section.api-schema id={ "schema-" (name) } data-schema=(name) {
            h3 { code { (name) } }
            @if let Some(description) = schema["description"].as_str() { p { (prose(description)) } }
            @match schema["properties"].as_object() {
                Some(properties) => {
                    div.table-wrap { table.api-table {
                        caption.sr-only { "The fields of " (name) }
                        thead { tr { th scope="col" { "Field" } th scope="col" { "Type" } th scope="col" { "Description" } } }
                        tbody {
                            @for (field, property) in properties {
                                tr {
                                    td { code { (field) } @if required.contains(&field.as_str()) { " " span.muted { "required" } } }
                                    td { (type_of(property)) }
                                    td { (prose(property["description"].as_str().unwrap_or_default())) }
                                }
                            }
                        }
                    } }
                }
                None => { p { (type_of(schema)) } }
            }
        }
    }
}

/// A schema's type in words: a link to a named schema, `array of …`, alternatives joined by
/// `or`, `null` included.
fn type_of(schema: &Value) -> Markup {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return html! { a href={ "#schema-" (name) } { code { (name) } } };
    }
    for (key, word) in [("oneOf", " or "), ("anyOf", " or "), ("allOf", " and ")] {
        if let Some(choices) = schema[key].as_array() {
            return html! {
                @for (i, choice) in choices.iter().enumerate() { @if i > 0 { (word) } (type_of(choice)) }
            };
        }
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
        return html! { "one of " code { (values.join(", ")) } };
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(one) => vec![one.as_str()],
        Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        return html! { "any JSON" };
    }
    html! {
        @for (i, kind) in types.iter().enumerate() {
            @if i > 0 { " or " }
            @if *kind == "array" { "array of " (type_of(&schema["items"])) } @else { (kind) }
        }
    }
}

/// The first sentence-line of a summary, for the contents.
fn first_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match joined.find(". ") {
        Some(end) => joined[..=end].to_owned(),
        None => joined,
    }
}

/// A doc comment's text, its `code` spans as code.
fn prose(text: &str) -> Markup {
    html! {
        @for (i, part) in text.split('`').enumerate() {
            @if i % 2 == 1 { code { (part) } } @else { (part) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn types_read_as_words_with_links_to_schemas() {
        let words = |v: Value| type_of(&v).into_string();
        assert_eq!(words(json!({"type": ["string", "null"]})), "string or null");
        assert_eq!(
            words(json!({"type": "array", "items": {"$ref": "#/components/schemas/VersionItem"}})),
            r##"array of <a href="#schema-VersionItem"><code>VersionItem</code></a>"##
        );
        assert_eq!(words(json!({})), "any JSON");
    }

    #[test]
    fn prose_escapes_and_marks_code() {
        assert_eq!(
            prose("a `b` <c>").into_string(),
            "a <code>b</code> &lt;c&gt;"
        );
    }
}
