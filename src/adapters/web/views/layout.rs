//! The page frame shared by every full page.

use maud::{html, Markup, DOCTYPE};

use super::super::demo::serving_demo;
use super::super::sender::{current_sender, not_identified, signing_in};
use super::site_nav::site_nav;

/// htmx settings: swap error responses too (they carry a readable message), no inline
/// styles or eval (the Content-Security-Policy forbids them).
const HTMX_CONFIG: &str = r#"{"responseHandling":[{"code":"204","swap":false},{"code":"[23]..","swap":true},{"code":"[45]..","swap":true,"error":true}],"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false}"#;

/// A small icon inline (the CSP allows `data:` images), so browsers ask for no /favicon.ico.
const FAVICON: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%230b5cad'/%3E%3Cpath d='M4 5h8M4 8h8M4 11h5' stroke='white' stroke-width='1.6'/%3E%3C/svg%3E";

/// A full HTML page with the console's header: the brand, the operator, the theme, and the
/// navigation to every section.
pub fn page(title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="htmx-config" content=(HTMX_CONFIG);
                title { (isolated(title)) " \u{2014} repo-console" }
                link rel="icon" href=(FAVICON);
                link rel="stylesheet" href=(super::super::assets::CSS_PATH);
                script src=(super::super::assets::HTMX_PATH) defer {}
                script src=(super::super::assets::JS_PATH) defer {}
            }
            body {
                header.topbar {
                    a.brand href="/" { "repo-console" }
                    span.topbar-note { "Pulp repository versions & deployment" }
                    (sender_badge())
                    button.ghost.theme-toggle type="button" id="theme-toggle" aria-label="Switch between light and dark theme" { "Theme" }
                }
                (site_nav())
                (demo_banner())
                main.container { (unidentified_notice()) (body) }
            }
        }
    }
}

/// On every page while the built-in demo upstream serves: its data are made up.
fn demo_banner() -> Markup {
    html! {
        @if serving_demo() {
            div.demo-banner id="demo-banner" data-demo role="note" {
                strong { "Demo" } ": made-up repositories from the built-in demo upstream, not a Pulp server. "
                "It starts afresh at every start. Set " code { "pulp.base_url" } " to use your Pulp."
            }
        }
    }
}

/// The operator's name in the header bar, or that the sender is not identified; signed in
/// with an OIDC provider, the groups too and the sign-out button (or the way to sign in).
fn sender_badge() -> Markup {
    let sender = current_sender();
    if signing_in() {
        return signed_in_badge(sender);
    }
    html! {
        @match sender {
            Some(Ok(operator)) => span.topbar-user id="operator" data-groups=(operator.groups().join(","))
                title={ "The operator named in the audit log" @if !operator.groups().is_empty() { "; groups: " (operator.groups().join(", ")) } } { bdi { (operator.as_str()) } },
            Some(Err(_)) => span.topbar-user.unidentified id="operator" { "not identified" },
            None => {}
        }
    }
}

/// The header bar's operator when operators sign in: the name and groups, and the
/// sign-out form (`#sign-out`, a POST protected like every form); else the way to sign in.
fn signed_in_badge(
    sender: Option<Result<crate::domain::identity::Operator, crate::ports::Unidentified>>,
) -> Markup {
    html! {
        @match sender {
            Some(Ok(operator)) => {
                span.topbar-user id="operator" data-groups=(operator.groups().join(","))
                    title="The operator named in the audit log" {
                    bdi { (operator.as_str()) }
                    @if !operator.groups().is_empty() {
                        " " span.topbar-groups id="operator-groups" { "(" bdi { (operator.groups().join(", ")) } ")" }
                    }
                }
                form.sign-out method="post" action="/oidc/sign-out" id="sign-out" {
                    button.ghost type="submit" { "Sign out" }
                }
            },
            Some(Err(_)) => a.topbar-user.unidentified id="sign-in" href="/oidc/sign-in" { "Sign in" },
            None => {}
        }
    }
}

/// Why this sender cannot deploy, roll back or synchronize, on every page.
fn unidentified_notice() -> Markup {
    match current_sender() {
        Some(Err(why)) => notice(
            "warn",
            Some("unidentified"),
            html! { "You cannot deploy, roll back or synchronize: " (not_identified(&why)) },
        ),
        _ => html! {},
    }
}

/// The one page of every failure (a page's main read, a refused request, a deploy that did
/// not happen): the header bar, `title`, the message, and the way back: the dashboard, and the
/// repository's versions when the failure is about one.
pub fn error_page(
    title: &str,
    message: Markup,
    repo: Option<&crate::domain::repository::RepoId>,
) -> Markup {
    page(
        title,
        html! {
            div.title-row { (back_link()) h1 { (title) } }
            (message)
            @if let Some(id) = repo {
                p { a href={ "/repos/" (id) "/versions" } { "Back to the versions" } }
            }
        },
    )
}

/// The ghost-button back link to the dashboard.
pub fn back_link() -> Markup {
    html! { a.ghost.back-link href="/" { "\u{2190} Dashboard" } }
}

/// A message box: `kind` is one of ok, warn, error.
pub fn notice(kind: &str, id: Option<&str>, text: Markup) -> Markup {
    html! { div class={ "notice " (kind) } id=[id] role=(if kind == "ok" { "status" } else { "alert" }) { (text) } }
}

/// Text wrapped in Unicode bidi isolation marks (FSI … PDI), for places where no `<bdi>`
/// element can go (the window title): a right-to-left override in a name stays inside it.
fn isolated(text: &str) -> String {
    format!("\u{2068}{text}\u{2069}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_htmx_settings_are_escaped_once_and_read_back_whole() {
        let html = page("x", html! {}).into_string();
        let document = scraper::Html::parse_document(&html);
        let meta = scraper::Selector::parse("meta[name=htmx-config]").unwrap();
        let content = document.select(&meta).next().unwrap().attr("content");
        assert_eq!(
            content,
            Some(HTMX_CONFIG),
            "the browser reads the JSON as written"
        );
        assert!(!html.contains("&amp;quot;"), "not escaped twice");
    }
}
