//! The compare page's filter (kind and name): what matches, the counts, the pager that keeps
//! the filter, a filter that matches nothing, and an unknown kind.

use repo_console::domain::diff::ChangeKind;
use repo_console::domain::repository::RepoId;

use crate::acme::{add_acme, NET_PACKAGE_CHANGES};
use crate::helpers::*;
use crate::web::{change_kinds, package_changes, select_in};

/// "1 added · 1 removed · 1 upgraded · 1 downgraded": acme's counts, v5 against v2.
const ACME_COUNTS: &str = "1 added \u{b7} 1 removed \u{b7} 1 upgraded \u{b7} 1 downgraded";

fn matches(html: &scraper::Html) -> (String, String, String) {
    let line = &select(html, "#filter-matches")[0];
    (
        attr(line, "data-matches").to_owned(),
        attr(line, "data-total").to_owned(),
        text(line),
    )
}

#[tokio::test]
async fn the_compare_page_filters_by_kind_keeping_the_counts_of_the_whole_diff() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let base = format!("/repos/{acme}/versions/5/changes?against=2");
    let all = app.get(&base).await.html();
    assert_eq!(change_kinds(&package_changes(&all)), NET_PACKAGE_CHANGES);
    assert_eq!(matches(&all).2, "4 package changes");
    for (kind, name) in NET_PACKAGE_CHANGES {
        let reply = app.get(&format!("{base}&kind={kind}")).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let html = reply.html();
        assert_eq!(change_kinds(&package_changes(&html)), [(kind, name)]);
        assert_eq!(text(&select(&html, "[data-kind-counts]")[0]), ACME_COUNTS);
        let (n, m, said) = matches(&html);
        assert_eq!((n.as_str(), m.as_str()), ("1", "4"));
        assert_eq!(said, "1 of 4 package changes match");
        let chosen = select(
            &html,
            "[data-compare-filter] select[name=kind] option[selected]",
        );
        assert_eq!(attr(&chosen[0], "value"), kind, "the form shows the filter");
    }
}

#[tokio::test]
async fn the_filter_form_offers_every_kind_and_says_what_each_field_is() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let html = app
        .get(&format!("/repos/{acme}/versions/5/changes?against=2"))
        .await
        .html();
    let form = &select(&html, "form[data-compare-filter]")[0];
    assert_eq!(attr(form, "method"), "get");
    assert_eq!(
        attr(form, "action"),
        format!("/repos/{acme}/versions/5/changes")
    );
    let kinds: Vec<String> = select_in(form, "select[name=kind] option")
        .iter()
        .map(|o| attr(o, "value").to_owned())
        .collect();
    let mut expected = vec![String::new()];
    expected.extend(ChangeKind::ALL.iter().map(|k| k.as_str().to_owned()));
    assert_eq!(kinds, expected);
    for field in ["filter-kind", "filter-name"] {
        let label = select_in(form, &format!("label[for={field}]"));
        assert!(!text(&label[0]).is_empty(), "{field} is labelled");
        assert_eq!(select_in(&label[0], &format!("#{field}")).len(), 1);
    }
    assert_eq!(
        attr(&select_in(form, "input[name=against]")[0], "value"),
        "2"
    );
    assert_eq!(select_in(form, "button[type=submit]").len(), 1);
    assert!(select_in(form, "[data-clear-filter]").is_empty());
}

#[tokio::test]
async fn the_name_filter_matches_a_piece_of_the_name_in_any_case_and_with_a_kind() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let base = format!("/repos/{acme}/versions/5/changes?against=2");
    let html = app.get(&format!("{base}&name=ACME-C")).await.html();
    assert_eq!(
        change_kinds(&package_changes(&html)),
        [("upgraded", "acme-c")]
    );
    let html = app.get(&format!("{base}&name=acme&kind=")).await.html();
    assert_eq!(package_changes(&html).len(), 4, "a blank kind is any kind");
    let html = app
        .get(&format!("{base}&kind=downgraded&name=%20Me-D%20"))
        .await
        .html();
    assert_eq!(
        change_kinds(&package_changes(&html)),
        [("downgraded", "acme-d")]
    );
    let name = select(&html, "input[name=name]");
    assert_eq!(attr(&name[0], "value"), "Me-D");
    assert_eq!(select(&html, "[data-clear-filter]").len(), 1);
}

#[tokio::test]
async fn a_filter_that_matches_nothing_says_so_and_how_to_see_everything() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let base = format!("/repos/{acme}/versions/5/changes?against=2");
    let reply = app.get(&format!("{base}&kind=added&name=zzz")).await;
    assert_eq!(reply.status, 200);
    let html = reply.html();
    assert!(select(&html, "[data-change]").is_empty());
    let said = text(&select(&html, "#no-match")[0]);
    assert!(
        said.contains(
            "No package change matches kind added with a name containing \u{201c}zzz\u{201d}"
        ),
        "{said}"
    );
    assert_eq!(matches(&html).2, "0 of 4 package changes match");
    let all = select(&html, "#no-match a");
    assert_eq!(attr(&all[0], "href"), base);
    assert_eq!(text(&select(&html, "[data-kind-counts]")[0]), ACME_COUNTS);
}

fn refs(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

/// A repository whose v2 against v1 adds `pkg-0000`…`pkg-0449` and removes `old-0000`…`old-0099`.
fn added_and_removed(app: &TestApp) -> RepoId {
    let id = app.memory.add_repo("paged", verified());
    let old: Vec<String> = (0..100).map(|i| format!("old-{i:04}-1")).collect();
    let new: Vec<String> = (0..450).map(|i| format!("pkg-{i:04}-1")).collect();
    app.memory.add_version(&id, &refs(&old), &[]);
    app.memory.add_version(&id, &refs(&new), &refs(&old));
    id
}

#[tokio::test]
async fn the_pager_keeps_the_filter_from_page_to_page() {
    let app = spawn_app().await;
    let id = added_and_removed(&app);
    let first = app
        .get(&format!(
            "/repos/{id}/versions/2/changes?against=1&kind=added&name=PKG"
        ))
        .await
        .html();
    assert_eq!(select(&first, "[data-change=added]").len(), 200);
    assert_eq!(text(&select(&first, ".pager span")[0]), "Page 1 of 3");
    assert_eq!(matches(&first).2, "450 of 550 package changes match");
    let next = attr(&select(&first, "a[rel=next]")[0], "href").to_owned();
    assert_eq!(
        next,
        format!("/repos/{id}/versions/2/changes?against=1&kind=added&name=PKG&page=2")
    );
    let second = app.get(&next).await.html();
    let prev = attr(&select(&second, "a[rel=prev]")[0], "href").to_owned();
    assert!(prev.ends_with("?against=1&kind=added&name=PKG"), "{prev}");
    let next = attr(&select(&second, "a[rel=next]")[0], "href").to_owned();
    let last = app.get(&next).await.html();
    let rows = select(&last, "[data-change]");
    assert_eq!(rows.len(), 50);
    assert!(rows.iter().all(|r| attr(r, "data-change") == "added"));
    assert_eq!(attr(&rows[49], "data-package"), "pkg-0449");
    let removed = app
        .get(&format!(
            "/repos/{id}/versions/2/changes?against=1&kind=removed"
        ))
        .await
        .html();
    assert_eq!(select(&removed, "[data-change=removed]").len(), 100);
    assert!(select(&removed, ".pager").is_empty(), "one page of 100");
}

#[tokio::test]
async fn an_unknown_kind_is_refused_with_400_naming_the_kinds_there_are() {
    let app = spawn_app().await;
    let acme = add_acme(&app.memory, verified());
    let reply = app
        .get(&format!(
            "/repos/{acme}/versions/5/changes?against=2&kind=changed"
        ))
        .await;
    assert_eq!(reply.status, 400, "{}", reply.body);
    let said = text(&select(&reply.html(), "#page-error")[0]);
    assert!(said.contains("'changed' is not a kind of change"), "{said}");
    for kind in ChangeKind::ALL {
        assert!(said.contains(kind.as_str()), "{said}");
    }
}
