use crate::helpers::*;

#[tokio::test]
async fn versions_page_lists_versions_newest_first_with_their_facts() {
    let app = spawn_app().await;
    let reply = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await;
    assert_eq!(reply.status, 200);
    assert!(reply.header("content-type").starts_with("text/html"));
    let html = reply.html();
    let rows = select(&html, "tr[data-version]");
    let numbers: Vec<&str> = rows.iter().map(|r| attr(r, "data-version")).collect();
    assert_eq!(numbers, ["4", "3", "2", "1", "0"]);
    let row3 = &rows[1];
    let cells: Vec<String> = row3
        .children()
        .filter_map(scraper::ElementRef::wrap)
        .map(|c| text(&c))
        .collect();
    assert_eq!(cells[0], "v3");
    assert_eq!(cells[2], "3", "package count");
    assert_eq!(cells[3], "\u{2212}2", "signed change count");
    assert_eq!(text(&select(&html, "h1")[0]), "base-os");
}

#[tokio::test]
async fn versions_page_flags_the_deployed_version_and_gates_the_deploy_buttons() {
    let app = spawn_app().await;
    let html = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await
        .html();
    for row in select(&html, "tr[data-version]") {
        let n = attr(&row, "data-version");
        let deployed = attr(&row, "data-deployed");
        assert_eq!(deployed, if n == "2" { "true" } else { "false" }, "v{n}");
        let badge = row
            .select(&scraper::Selector::parse("[data-badge]").unwrap())
            .next()
            .unwrap();
        assert_eq!(attr(&badge, "data-badge"), "verified");
        let button = row
            .select(&scraper::Selector::parse("[data-deploy-version]").unwrap())
            .next()
            .unwrap();
        assert_eq!(attr(&button, "data-deploy-version"), n);
        assert_eq!(
            button.value().attr("disabled").is_some(),
            n == "2",
            "v{n}: only the deployed version is inactive"
        );
    }
}

#[tokio::test]
async fn unverified_and_partial_repositories_have_no_active_deploy_button() {
    let app = spawn_app().await;
    for (id, badge) in [
        (&app.fixture.tools, "unverified"),
        (&app.fixture.partial, "partial"),
    ] {
        let html = app.get(&format!("/repos/{id}/versions")).await.html();
        let buttons = select(&html, "[data-deploy-version]");
        assert!(!buttons.is_empty());
        assert!(
            buttons.iter().all(|b| b.value().attr("disabled").is_some()),
            "{badge}"
        );
        assert!(select(&html, "tr[data-version] [data-badge]")
            .iter()
            .all(|b| attr(b, "data-badge") == badge));
    }
}

#[tokio::test]
async fn versions_page_shows_the_verification_detail() {
    let app = spawn_app().await;
    let html = app
        .get(&format!("/repos/{}/versions", app.fixture.partial))
        .await
        .html();
    let checks: Vec<(String, String)> = select(&html, "[data-check]")
        .iter()
        .map(|c| {
            (
                attr(c, "data-check").to_owned(),
                attr(c, "data-ok").to_owned(),
            )
        })
        .collect();
    let expected = [
        ("gpgcheck", "true"),
        ("checksum", "true"),
        ("metadata", "false"),
    ];
    assert_eq!(checks, expected.map(|(a, b)| (a.to_owned(), b.to_owned())));
    assert!(app
        .get(&format!("/repos/{}/versions", app.fixture.partial))
        .await
        .body
        .contains("sha256"));
}

#[tokio::test]
async fn versions_page_has_a_back_link_to_the_dashboard() {
    let app = spawn_app().await;
    let html = app
        .get(&format!("/repos/{}/versions", app.fixture.base_os))
        .await
        .html();
    let back = select(&html, "a.back-link");
    assert_eq!(attr(&back[0], "href"), "/");
}

/// A segment that is not a UUID is a repository's name: looked up in the repository list (a
/// query, never a path built from it), and a name Pulp does not have is a 404 saying so.
#[tokio::test]
async fn a_path_that_is_not_a_uuid_is_looked_up_as_a_name_and_never_becomes_an_upstream_path() {
    let app = spawn_app().await;
    for path in [
        "/repos/not-a-uuid/versions",
        "/repos/..%2F..%2Fetc/versions",
        "/repos/x'/deploy/confirm?version=1",
    ] {
        let reply = app.get(path).await;
        assert_eq!(reply.status, 404, "{path}");
        assert!(
            reply.body.contains("no RPM repository named"),
            "{path}: says why"
        );
    }
    let calls = app.memory.calls();
    assert!(
        calls.iter().all(|c| c.starts_with("list_repos ")),
        "only the repository list is read: {calls:?}"
    );
}

#[tokio::test]
async fn a_deploy_by_name_is_refused_without_a_lookup() {
    let app = spawn_app().await;
    let reply = app
        .request(
            "POST",
            "/repos/base-os/deploy",
            &[],
            "version=3&confirm=base-os",
        )
        .await;
    assert_eq!(reply.status, 404);
    assert!(reply.body.contains("UUID"), "{}", reply.body);
    assert!(app.memory.calls().is_empty(), "{:?}", app.memory.calls());
}

#[tokio::test]
async fn an_unknown_page_is_a_readable_404() {
    let app = spawn_app().await;
    let reply = app.get("/nowhere").await;
    assert_eq!(reply.status, 404);
    assert!(reply.body.contains("No such page"));
}

#[tokio::test]
async fn hostile_repository_names_are_escaped_everywhere() {
    let app = spawn_app().await;
    let versions = app
        .get(&format!("/repos/{}/versions", app.fixture.hostile))
        .await;
    let dashboard = app.get("/").await;
    let confirm = app
        .get(&format!(
            "/repos/{}/deploy/confirm?version=2",
            app.fixture.hostile
        ))
        .await;
    for reply in [&versions, &dashboard, &confirm] {
        assert!(!reply.body.contains("<script>alert"), "raw markup leaked");
        assert!(
            reply.body.contains("&lt;script&gt;alert"),
            "the name is shown, escaped"
        );
    }
    let html = confirm.html();
    let modal = select(&html, "#deploy-modal");
    assert_eq!(
        attr(&modal[0], "data-confirm"),
        HOSTILE,
        "the attribute round-trips exactly"
    );
}

#[tokio::test]
async fn dashboard_lists_every_repository_linking_to_its_versions() {
    let app = spawn_app().await;
    let html = app.get("/").await.html();
    let rows = select(&html, "tr[data-repo]");
    assert_eq!(rows.len(), 6);
    for row in rows {
        let id = attr(&row, "data-repo");
        let link = row
            .select(&scraper::Selector::parse("a").unwrap())
            .next()
            .unwrap();
        assert_eq!(attr(&link, "href"), format!("/repos/{id}/versions"));
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = spawn_app().await;
    for path in [
        "/",
        "/nowhere",
        &format!("/repos/{}/versions", app.fixture.base_os),
    ] {
        let reply = app.get(path).await;
        let csp = reply.header("content-security-policy");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{path}: {csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"));
        assert_eq!(reply.header("x-content-type-options"), "nosniff");
        assert!(!reply.header("referrer-policy").is_empty());
    }
}

#[tokio::test]
async fn assets_are_served_from_the_binary_with_cache_headers() {
    let app = spawn_app().await;
    let html = app.get("/").await.html();
    for script in select(&html, "script[src]") {
        let reply = app.get(attr(&script, "src")).await;
        assert_eq!(reply.status, 200);
        assert!(reply.header("cache-control").contains("max-age"));
        assert!(reply.body.len() > 100);
    }
    let css = select(&html, "link[rel=stylesheet]");
    assert_eq!(app.get(attr(&css[0], "href")).await.status, 200);
}

#[tokio::test]
async fn repository_names_are_bidi_isolated_so_an_override_cannot_reverse_the_text_around_them() {
    let app = spawn_app().await;
    let name = "\u{202E}evil";
    let id = app.memory.add_repo(name, verified());
    app.memory.add_version(&id, &["a"], &[]);
    let live = app
        .memory
        .publish(&id, repo_console::domain::repository::VersionNumber::new(1));
    app.memory.add_distribution("evil-prod", Some(&live));
    app.memory.add_version(&id, &["b"], &[]);
    let versions = app.get(&format!("/repos/{id}/versions")).await.html();
    assert_eq!(text(&select(&versions, "h1 > bdi")[0]), name);
    let dashboard = app.get("/").await.html();
    assert!(select(&dashboard, "tr[data-repo] th a > bdi")
        .iter()
        .any(|b| text(b) == name));
    let confirm = app
        .get(&format!("/repos/{id}/deploy/confirm?version=2"))
        .await
        .html();
    assert_eq!(text(&select(&confirm, "code.repo-name > bdi")[0]), name);
    let title = text(&select(&versions, "title")[0]);
    assert!(
        title.starts_with('\u{2068}') && title.contains("\u{2069}"),
        "the window title isolates it: {title:?}"
    );
}
