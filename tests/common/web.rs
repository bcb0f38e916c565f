//! Shared by the test binaries: a small HTTP client for a console on a socket, and helpers
//! to read its HTML. Included with `#[path]` (each file in tests/ is its own crate).

#![allow(dead_code)] // each binary uses its own part

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use scraper::{ElementRef, Html, Selector};

/// A console's answer.
pub struct Reply {
    pub status: u16,
    pub headers: hyper::HeaderMap,
    pub body: String,
}

impl Reply {
    pub fn html(&self) -> Html {
        Html::parse_document(&self.body)
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

/// Talks to a console at `address` (`http://127.0.0.1:<port>`).
#[derive(Clone)]
pub struct WebClient {
    pub address: String,
}

impl WebClient {
    pub async fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
        let mut request = hyper::Request::builder()
            .method(method)
            .uri(format!("{}{path}", self.address));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_owned())))
            .expect("a request");
        let response = client.request(request).await.expect("the console answers");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("a body")
            .to_bytes();
        Reply {
            status,
            headers,
            body: String::from_utf8(bytes.to_vec()).expect("UTF-8"),
        }
    }

    pub async fn get(&self, path: &str) -> Reply {
        self.send("GET", path, &[], "").await
    }

    /// A form POST as a script sends it (no htmx header).
    pub async fn post(&self, path: &str, form: &str) -> Reply {
        self.send(
            "POST",
            path,
            &[("content-type", "application/x-www-form-urlencoded")],
            form,
        )
        .await
    }

    /// A form POST as the console's pages send it (htmx).
    pub async fn post_htmx(&self, path: &str, form: &str) -> Reply {
        let headers = [
            ("content-type", "application/x-www-form-urlencoded"),
            ("hx-request", "true"),
        ];
        self.send("POST", path, &headers, form).await
    }
}

/// Percent-encodes a form value.
pub fn enc(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The confirm step's package changes: (`data-change`, `data-package`, text) of each.
pub fn package_changes(html: &Html) -> Vec<(String, String, String)> {
    select(html, "[data-change]")
        .iter()
        .map(|e| {
            (
                attr(e, "data-change").to_owned(),
                attr(e, "data-package").to_owned(),
                text(e),
            )
        })
        .collect()
}

/// The (kind, name) of each package change of the confirm step.
pub fn change_kinds(changes: &[(String, String, String)]) -> Vec<(&str, &str)> {
    changes
        .iter()
        .map(|(k, p, _)| (k.as_str(), p.as_str()))
        .collect()
}

pub fn select<'a>(html: &'a Html, css: &str) -> Vec<ElementRef<'a>> {
    html.select(&Selector::parse(css).expect("a selector"))
        .collect()
}

pub fn select_in<'a>(el: &ElementRef<'a>, css: &str) -> Vec<ElementRef<'a>> {
    el.select(&Selector::parse(css).expect("a selector"))
        .collect()
}

pub fn attr<'a>(el: &ElementRef<'a>, name: &str) -> &'a str {
    el.value().attr(name).unwrap_or("")
}

/// The element's text with white space runs folded to one space.
pub fn text(el: &ElementRef<'_>) -> String {
    el.text()
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Deploys a deployable version of the demo's first verified repository, as the pages do.
pub async fn deploy_on_the_demo(client: &WebClient) {
    let dashboard = client.get("/").await;
    let html = dashboard.html();
    let row = select(&html, "tr[data-repo]")
        .into_iter()
        .find(|row| !select_in(row, "[data-badge='verified']").is_empty())
        .expect("a verified repository on the demo's dashboard");
    let repo = attr(&row, "data-repo").to_owned();
    let versions = client.get(&format!("/repos/{repo}/versions")).await.html();
    let version = select(&versions, "button[data-deploy-version]:not([disabled])")
        .first()
        .map(|b| attr(b, "data-deploy-version").to_owned())
        .expect("a deployable version on the demo");
    let confirm = client
        .get(&format!("/repos/{repo}/deploy/confirm?version={version}"))
        .await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = scraper::Html::parse_fragment(&confirm.body);
    let name = attr(&select(&html, "#deploy-modal")[0], "data-confirm").to_owned();
    let live = attr(&select(&html, "input[name=live]")[0], "value").to_owned();
    let form = format!("version={version}&live={live}&confirm={}", enc(&name));
    let deployed = client
        .post_htmx(&format!("/repos/{repo}/deploy"), &form)
        .await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
}
