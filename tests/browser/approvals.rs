//! Four-eyes approval in the browser (issue 24): production needs one approval by
//! group:release. One state (one upstream, one request store) is served twice, for alice
//! (groups dev and release) on one origin and for bob (group release) on another. Alice's
//! deploy from the versions page becomes a request and changes nothing; though an approver,
//! she may not approve it herself; bob sees its preview and diff, types the name, approves,
//! and the deploy runs.

use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Arc;

use repo_console::adapters::memory::{InMemoryPulp, RecordingAuditSink};
use repo_console::domain::deploy::AuditOutcome;
use repo_console::domain::environment::EnvironmentName;
use repo_console::domain::policy::{Approvals, Policy, Subject};
use repo_console::domain::repository::RepoId;
use serde_json::json;

use super::a11y;
use super::browser::Browser;
use super::look;
use super::versions::wait_modal_focused;
use super::world::{self, operator};
use crate::test_app::Standing;

pub const REPO: &str = "rhel9-baseos";
const DISTRIBUTION: &str = "rhel9-baseos-prod";
const REASON: &str = "CVE-2026-1234: curl and openssl";

pub struct ApprovalApp {
    /// The console as alice (groups dev and release: an approver too) sees it.
    pub alice: String,
    /// The same console as bob (group release) sees it.
    pub bob: String,
    pub memory: Arc<InMemoryPulp>,
    pub audit: Arc<RecordingAuditSink>,
    _standing: Standing<RepoId>,
    /// `rhel9-baseos`: v0..v5, production serves v3.
    pub repo: RepoId,
}

/// Production needs one approval, by group:release.
fn policy() -> Policy {
    let approvers = vec![Subject::parse("group:release").expect("a subject")];
    let approvals =
        Approvals::new(NonZeroU32::new(1).expect("one"), approvers).expect("approvers listed");
    Policy::default().with_approvals(BTreeMap::from([(EnvironmentName::production(), approvals)]))
}

/// The suite's world (its `rhel9-baseos` served at v3 in production) under [`policy`],
/// with an in-memory request store, served for alice and for bob.
pub async fn spawn_app() -> ApprovalApp {
    let standing = world::suite_app(|memory| world::build(memory).baseos)
        .production(HashMap::new())
        .policy(policy())
        .requests()
        .build();
    let alice = standing
        .serve_variant(|state| state.identity(operator("alice", &["dev", "release"])))
        .await;
    let bob = standing
        .serve_variant(|state| state.identity(operator("bob", &["release"])))
        .await;
    ApprovalApp {
        alice,
        bob,
        memory: standing.memory.clone(),
        audit: standing.recorded(),
        repo: standing.fixture.clone(),
        _standing: standing,
    }
}

/// An audited deploy: by whom, which version, and the request's requester and approvers.
type Deployed = (String, u64, Option<(String, Vec<String>)>);

impl ApprovalApp {
    fn production(&self) -> Option<u64> {
        self.memory.serving_version(DISTRIBUTION).map(|v| v.get())
    }

    fn deploys(&self) -> Vec<Deployed> {
        self.audit
            .records()
            .into_iter()
            .filter(|r| r.outcome == AuditOutcome::Deployed)
            .map(|r| {
                let trail = r.request.map(|t| {
                    let approvers = t.approvers.iter().map(|a| a.to_string()).collect();
                    (t.requester.to_string(), approvers)
                });
                (r.operator, r.target_version, trail)
            })
            .collect()
    }
}

async fn text_of(b: &Browser, css: &str) -> String {
    b.js(
        "var e = document.querySelector(arguments[0]); return e ? e.textContent.replace(/\\s+/g, ' ').trim() : '';",
        vec![json!(css)],
    )
    .await
}

async fn who(b: &Browser) -> String {
    text_of(b, "#operator").await
}

/// The state of request `id` on the page: its row in `table` (`#requests`, `/requests`),
/// as `data-request-state` and the words of its state cell.
async fn row_state(b: &Browser, table: &str, id: &str) -> Option<(String, String)> {
    b.js(
        "var r = document.querySelector(arguments[0] + \" tr[data-request-id='\" + arguments[1] + \"']\");
         return r ? [r.dataset.requestState, r.querySelector('.request-state').textContent.trim()] : null;",
        vec![json!(table), json!(id)],
    )
    .await
}

/// As alice: the Deploy of v4 from the versions page becomes a request; nothing is
/// deployed; the reloaded versions page lists it as pending. Answers its id.
pub async fn alice_requests(b: &Browser, app: &ApprovalApp) -> String {
    b.goto_at(&app.alice, &format!("/repos/{}/versions", app.repo))
        .await;
    assert_eq!(who(b).await, "alice", "alice's origin names alice");
    let listed: bool = b
        .js("return !document.getElementById('requests')", vec![])
        .await;
    assert!(listed, "no request yet: no requests section");
    b.find("button[data-deploy-version='4']")
        .await
        .click()
        .await
        .expect("click Deploy of v4");
    wait_modal_focused(b).await;
    let (approvals, confirm): (String, String) = b
        .js(
            "var m = document.getElementById('deploy-modal');
             return [m.dataset.approvals, m.querySelector('[data-modal-confirm]').textContent.trim()];",
            vec![],
        )
        .await;
    assert_eq!(
        approvals, "1",
        "the modal knows production needs one approval"
    );
    assert_eq!(
        confirm, "Request approval",
        "the confirm button says what it does"
    );
    let needs = text_of(b, "#approvals-needed [data-approvals-needed='1']").await;
    assert!(
        needs.contains("Needs approval") && needs.contains("1 approval by someone else"),
        "the modal says a deploy to production needs approval: {needs:?}"
    );
    b.keys(REPO).await;
    b.find("#reason-input")
        .await
        .click()
        .await
        .expect("click the reason field");
    b.keys(REASON).await;
    b.screenshot("approval-modal").await;
    a11y::check_themes(b, "the dialog of a deploy that needs approval").await;
    b.find("[data-modal-confirm]")
        .await
        .click()
        .await
        .expect("click Request approval");
    b.wait_until(
        "the modal says the deploy was requested",
        "var m = document.getElementById('deploy-modal'); var t = document.getElementById('deploy-title');
         return !!m && !!t && t.textContent === 'Deploy requested' && !!m.querySelector('[data-request-id]')",
    )
    .await;
    let (id, state): (String, String) = b
        .js(
            "var r = document.querySelector('#deploy-modal [data-request-id]');
             return [r.dataset.requestId, r.dataset.requestState];",
            vec![],
        )
        .await;
    assert_eq!(state, "pending");
    assert!(!id.is_empty(), "the request has an id");
    let facts = text_of(b, "#deploy-modal .request-facts").await;
    for fact in [REPO, "production", "v3", "v4", "alice", REASON] {
        assert!(facts.contains(fact), "the request names {fact}: {facts:?}");
    }
    let link: String = b
        .js(
            "return document.querySelector('#request-made a').getAttribute('href')",
            vec![],
        )
        .await;
    assert_eq!(
        link,
        format!("/requests/{id}"),
        "the answer links the request"
    );
    // The toggle is under the modal's backdrop: the theme is set as the toggle sets it.
    for theme in ["dark", "light"] {
        b.js::<()>(
            "document.documentElement.setAttribute('data-theme', arguments[0])",
            vec![json!(theme)],
        )
        .await;
        readable(b, "the answer to the request", theme).await;
        b.screenshot(&format!("approval-requested-{theme}")).await;
        a11y::check(
            b,
            &format!("the dialog's answer: deploy requested ({theme})"),
        )
        .await;
    }
    assert_eq!(
        app.production(),
        Some(3),
        "a request changes nothing upstream"
    );
    assert!(
        app.deploys().is_empty(),
        "nothing deployed, nothing audited"
    );

    b.find("[data-modal-cancel]")
        .await
        .click()
        .await
        .expect("click Close");
    b.wait_until(
        "the modal closed",
        "return !document.getElementById('deploy-modal')",
    )
    .await;
    b.goto_at(&app.alice, &format!("/repos/{}/versions", app.repo))
        .await;
    assert_eq!(
        row_state(b, "#requests", &id).await,
        Some(("pending".to_owned(), "pending".to_owned())),
        "the versions page lists the request as pending"
    );
    let live: Vec<u64> = b
        .js("return Array.from(document.querySelectorAll('tr[data-version] [data-live]')).map(function (e) {
               return Number(e.closest('tr').dataset.version); })", vec![])
        .await;
    assert_eq!(live, [3], "production still serves v3");
    table_fits(b, "#requests").await;
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        readable(b, "the versions page with a request", theme).await;
        a11y::check(
            b,
            &format!("the versions page with a pending request ({theme})"),
        )
        .await;
        b.screenshot(&format!("approval-versions-pending-{theme}"))
            .await;
    }
    id
}

/// As alice on her own request: Approve disabled, saying someone else must approve;
/// Cancel offered.
pub async fn alice_may_not_approve(b: &Browser, app: &ApprovalApp, id: &str) {
    b.goto_at(&app.alice, &format!("/requests/{id}")).await;
    let state: String = b
        .js(
            "return document.querySelector('.request[data-request-id]').dataset.requestState",
            vec![],
        )
        .await;
    assert_eq!(state, "pending");
    let buttons: Vec<(String, bool, Option<String>)> = b
        .js(
            "return Array.from(document.querySelectorAll('[data-request-action]')).map(function (e) {
               return [e.dataset.requestAction, e.disabled, e.getAttribute('title')]; })",
            vec![],
        )
        .await;
    let button = |action: &str| {
        buttons
            .iter()
            .find(|(a, _, _)| a == action)
            .unwrap_or_else(|| panic!("no {action} button: {buttons:?}"))
            .clone()
    };
    let (_, disabled, title) = button("approve");
    assert!(disabled, "alice may not approve her own request");
    let title = title.unwrap_or_default();
    assert!(
        title.contains("someone else must approve"),
        "the disabled Approve says why: {title:?}"
    );
    let (_, disabled, title) = button("reject");
    assert!(disabled, "alice may not reject her own request: {title:?}");
    let (_, disabled, _) = button("cancel");
    assert!(!disabled, "alice may cancel her own request");
    let said = text_of(b, "[data-denied-why='approve']").await;
    assert!(
        said.contains("someone else must approve"),
        "the page says it in words too, not only in a title: {said:?}"
    );
    b.find("form.approve-form input[name=confirm]")
        .await
        .click()
        .await
        .expect("click the confirmation field");
    b.keys(REPO).await;
    let still: bool = b
        .js(
            "return document.querySelector(\"[data-request-action='approve']\").disabled",
            vec![],
        )
        .await;
    assert!(still, "typing the name does not enable alice's Approve");
    b.screenshot("approval-request-alice").await;
    a11y::check_themes(b, "/requests/<id> as its requester").await;
}

/// As bob: the request's page with the preview and diff; he types the name and approves;
/// the deploy runs and the page shows the request executed.
pub async fn bob_approves(b: &Browser, app: &ApprovalApp, id: &str) {
    b.goto_at(&app.bob, &format!("/requests/{id}")).await;
    assert_eq!(who(b).await, "bob", "bob's origin names bob");
    let changes: Vec<(String, String)> = b
        .js(
            "return Array.from(document.querySelectorAll('[data-change]')).map(function (e) {
               return [e.dataset.change, e.dataset.package || '']; })",
            vec![],
        )
        .await;
    assert!(
        changes.contains(&("added".to_owned(), "curl".to_owned())),
        "the diff of v3 -> v4, as the confirm step shows it: curl added: {changes:?}"
    );
    let page = text_of(b, ".request").await;
    for fact in ["pending", "0 of 1 approvals", REPO, "alice", REASON] {
        assert!(
            page.contains(fact),
            "the request page says {fact}: {page:?}"
        );
    }
    let change = text_of(b, ".request dl.preview:not(.request-facts) dd").await;
    assert!(
        change.contains("v3") && change.contains("v4"),
        "the preview: v3 -> v4: {change:?}"
    );
    let (approve_disabled, reject_disabled, cancel_disabled): (bool, bool, bool) = b
        .js(
            "function d(a) { return document.querySelector(\"[data-request-action='\" + a + \"']\").disabled; }
             return [d('approve'), d('reject'), d('cancel')];",
            vec![],
        )
        .await;
    assert!(
        approve_disabled,
        "Approve is disabled until the name is typed, as the modal's Confirm deploy"
    );
    assert!(!reject_disabled, "bob, an approver, may reject");
    assert!(cancel_disabled, "only alice may cancel her request");
    let denied: bool = b
        .js(
            "return !document.querySelector('[data-denied-why]')",
            vec![],
        )
        .await;
    assert!(denied, "nothing says bob may not approve");
    request_page_screenshots(b).await;
    layout_holds(b).await;
    narrow_request_page(b).await;

    b.find("form.approve-form input[name=confirm]")
        .await
        .click()
        .await
        .expect("click the confirmation field");
    b.keys(&REPO[..REPO.len() - 1]).await;
    let enabled: bool = b
        .js(
            "return !document.querySelector(\"[data-request-action='approve']\").disabled",
            vec![],
        )
        .await;
    assert!(!enabled, "a prefix of the name leaves Approve disabled");
    b.keys(&REPO[REPO.len() - 1..]).await;
    let enabled: bool = b
        .js(
            "return !document.querySelector(\"[data-request-action='approve']\").disabled",
            vec![],
        )
        .await;
    assert!(enabled, "Approve is enabled once bob typed the name");
    // The README's docs/src/images/request-approval.png: bob about to approve.
    b.screenshot("request-approval").await;
    b.find("[data-request-action='approve']")
        .await
        .click()
        .await
        .expect("click Approve");
    b.wait_until_with(
        "the request's page shows it executed",
        "var r = document.querySelector(\".request[data-request-id='\" + arguments[0] + \"']\");
         return document.readyState === 'complete' && !!r && r.dataset.requestState === 'executed'",
        vec![json!(id)],
    )
    .await;
    let page = text_of(b, ".request").await;
    assert!(
        page.contains("executed")
            && page.contains("1 of 1 approvals (bob)")
            && page.contains("deployed."),
        "the page says who approved and that it deployed: {page:?}"
    );
    let forms: bool = b
        .js(
            "return !document.querySelector('form.approve-form, [data-request-action]')",
            vec![],
        )
        .await;
    assert!(forms, "an executed request offers no action");
    b.screenshot("approval-executed").await;
    a11y::check_themes(b, "/requests/<id> executed").await;
    assert_eq!(app.production(), Some(4), "production serves v4 upstream");
    assert_eq!(
        app.deploys(),
        [(
            "alice".to_owned(),
            4,
            Some(("alice".to_owned(), vec!["bob".to_owned()]))
        )],
        "one deploy, alice's, approved by bob, audited"
    );

    b.goto_at(&app.bob, "/requests").await;
    assert_eq!(
        row_state(b, "table.requests", id).await,
        Some(("executed".to_owned(), "executed".to_owned())),
        "/requests lists it executed"
    );
    table_fits(b, "table.requests").await;
    b.screenshot("approval-requests-list").await;
    a11y::check_themes(b, "/requests").await;
    b.goto_at(&app.alice, &format!("/repos/{}/versions", app.repo))
        .await;
    let live: Vec<u64> = b
        .js("return Array.from(document.querySelectorAll('tr[data-version] [data-live]')).map(function (e) {
               return Number(e.closest('tr').dataset.version); })", vec![])
        .await;
    assert_eq!(live, [4], "alice's versions page: production serves v4");
    assert_eq!(
        row_state(b, "#requests", id).await.map(|s| s.0),
        Some("executed".to_owned())
    );
}

/// The request page at 1280x900 in both themes, its text readable in each.
async fn request_page_screenshots(b: &Browser) {
    for theme in ["dark", "light"] {
        b.use_theme(theme).await;
        readable(b, "the request's page", theme).await;
        a11y::check(b, &format!("/requests/<id> as an approver ({theme})")).await;
        b.screenshot(&format!("request-approval-{theme}")).await;
    }
}

/// Text that an operator reads, at WCAG 4.5:1 at least (the suite's contrast check).
async fn readable(b: &Browser, what: &str, theme: &str) {
    const READ: &str = "h1, h2, th, td, a, .muted, .notice, button, code, dt, dd, label, .request-state, .request-status, .change, .net";
    let low: Vec<String> = b.js(look::CONTRAST, vec![json!(READ)]).await;
    assert!(
        low.is_empty(),
        "text under 4.5:1 contrast on {what} in {theme}:\n{low:#?}"
    );
}

/// At 768 px the request's page does not scroll sideways and its buttons stay on screen.
async fn narrow_request_page(b: &Browser) {
    b.set_viewport(768, 1000).await;
    let (page, off): (bool, Vec<String>) = b
        .js(
            "var off = Array.from(document.querySelectorAll('[data-request-action], input[name=confirm]')).filter(function (e) {
               return e.getBoundingClientRect().right > innerWidth; }).map(function (e) { return e.outerHTML.slice(0, 60); });
             return [document.documentElement.scrollWidth <= innerWidth, off];",
            vec![],
        )
        .await;
    b.screenshot("request-approval-768").await;
    assert!(
        page,
        "the request's page does not scroll sideways at 768 px"
    );
    assert!(off.is_empty(), "off the screen at 768 px: {off:?}");
    b.set_viewport(1280, 900).await;
}

/// The table of requests neither overflows the page nor its own box.
async fn table_fits(b: &Browser, table: &str) {
    let (page, inside): (bool, bool) = b
        .js(
            "var t = document.querySelector(arguments[0]); var w = t.closest('.table-wrap') || t.parentElement;
             return [document.documentElement.scrollWidth <= innerWidth,
                     t.getBoundingClientRect().right <= w.getBoundingClientRect().right + 0.5];",
            vec![json!(table)],
        )
        .await;
    assert!(page, "{table}: the page does not scroll sideways");
    assert!(inside, "{table} stays inside its box");
}

/// The request page's parts: the facts in two columns (term, then its value on the same
/// line), the confirmation field as wide as the form, the buttons on one row.
async fn layout_holds(b: &Browser) {
    let facts: Vec<(f64, f64)> = b
        .js(
            "return Array.from(document.querySelectorAll('.request-facts > div')).map(function (d) {
               var t = d.querySelector('dt').getBoundingClientRect(), v = d.querySelector('dd').getBoundingClientRect();
               return [v.left - t.right, Math.abs(v.top - t.top)]; })",
            vec![],
        )
        .await;
    assert!(!facts.is_empty(), "the request's facts are listed");
    for (gap, misalign) in &facts {
        assert!(
            *gap >= 0.0 && *misalign < 2.0,
            "each fact's value beside its term: {facts:?}"
        );
    }
    let buttons: Vec<(String, f64, f64)> = b
        .js(
            "return Array.from(document.querySelectorAll('[data-request-action]')).map(function (e) {
               var r = e.getBoundingClientRect(); return [e.dataset.requestAction, r.top, r.height]; })",
            vec![],
        )
        .await;
    assert_eq!(
        buttons.len(),
        3,
        "Approve, Reject, Cancel request: {buttons:?}"
    );
    let tops: Vec<f64> = buttons.iter().map(|b| b.1).collect();
    assert!(
        tops.iter().all(|t| (t - tops[0]).abs() < 1.0),
        "Approve, Reject and Cancel request on one row: {buttons:?}"
    );
}
