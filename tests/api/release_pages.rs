//! The release pages over the in-memory Pulp: the page (one row per member, one cell per
//! environment, the sets, drift), the confirm step, the promotion's post with its typed
//! name, the rollback of the set, and the dashboard's list of releases.

use crate::helpers::*;
use crate::releases::{app, promote_alone, MEMBERS};

fn cells(reply: &Reply) -> Vec<(String, String, String)> {
    let html = reply.html();
    select(&html, "tr[data-release-member] td[data-env]")
        .iter()
        .map(|td| {
            let row = td.parent().and_then(scraper::ElementRef::wrap).unwrap();
            (
                attr(&row, "data-release-member").to_owned(),
                attr(td, "data-env").to_owned(),
                td.value().attr("data-env-version").unwrap_or("").to_owned(),
            )
        })
        .collect()
}

async fn post_form(app: &crate::test_app::TestApp<()>, body: &str) -> Reply {
    let headers = [
        ("content-type", "application/x-www-form-urlencoded"),
        ("hx-request", "true"),
    ];
    app.client
        .send("POST", "/releases/el9/promote", &headers, body)
        .await
}

fn promotion_form(confirm: &str) -> String {
    let mut body = format!("env=production&confirm={confirm}");
    for m in MEMBERS {
        body.push_str(&format!("&version.{m}=2&current.{m}=1"));
    }
    body
}

#[tokio::test]
async fn the_page_shows_every_member_in_every_environment_and_the_sets() {
    let app = app(&MEMBERS).spawn().await;
    let page = app.get("/releases/el9").await;
    assert_eq!(page.status, 200, "{}", page.body);
    let cells = cells(&page);
    assert_eq!(
        cells.len(),
        6,
        "one cell per member and environment: {cells:?}"
    );
    assert!(cells.contains(&("appstream".into(), "staging".into(), "2".into())));
    assert!(cells.contains(&("epel".into(), "production".into(), "1".into())));
    let html = page.html();
    let sets = select(
        &html,
        "[data-release-set=production] button[data-promote-env]",
    );
    assert_eq!(
        attr(&sets[0], "hx-get"),
        "/releases/el9/promote/confirm?env=production"
    );
    assert!(text(&select(&html, "[data-release-set=production]")[0])
        .contains("Promote staging's set to production"));
    assert!(select(&html, "[data-release-drift]").is_empty());
    assert_eq!(app.get("/releases/nope").await.status, 404);

    let board = app.get("/").await;
    let html = board.html();
    assert_eq!(select(&html, "[data-release-link=el9] a").len(), 1);
    assert_eq!(select(&html, "tr[data-release=el9]").len(), 3);
}

#[tokio::test]
async fn the_confirm_step_shows_each_member_and_posting_the_typed_name_promotes_the_set() {
    let app = app(&MEMBERS).spawn().await;
    let confirm = app
        .get("/releases/el9/promote/confirm?env=production")
        .await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = confirm.html();
    assert_eq!(
        attr(&select(&html, "#deploy-modal")[0], "data-confirm"),
        "el9"
    );
    assert_eq!(select(&html, "section[data-release-member]").len(), 3);
    assert!(
        !select(&html, "[data-change]").is_empty(),
        "each member's package changes"
    );
    assert_eq!(
        attr(&select(&html, "input[name='version.epel']")[0], "value"),
        "2"
    );
    assert_eq!(
        attr(&select(&html, "input[name='current.epel']")[0], "value"),
        "1"
    );

    let wrong = post_form(&app, &promotion_form("el8")).await;
    assert_eq!(wrong.status, 422, "{}", wrong.body);
    assert_eq!(app.memory.serving_version("baseos-prod").unwrap().get(), 1);

    let done = post_form(&app, &promotion_form("el9")).await;
    assert_eq!(done.status, 200, "{}", done.body);
    let html = done.html();
    let outcomes: Vec<&str> = select(&html, "[data-member-outcome]")
        .iter()
        .map(|e| attr(e, "data-member-outcome"))
        .collect();
    assert_eq!(outcomes, ["moved", "moved", "moved"]);
    assert_eq!(
        attr(&select(&html, "[data-served-set]")[0], "data-served-set"),
        "new"
    );
    // The dialog's place for the members' steps: each member's deploy, shown ended.
    let confirmed = confirm.html();
    let progress = &select(&confirmed, "#deploy-modal #deploy-progress")[0];
    let url = attr(progress, "data-progress-url");
    assert!(url.starts_with("/deploys/under-way?repos="), "{url}");
    let steps = app.get(url).await;
    assert_eq!(steps.status, 200, "{}", steps.body);
    let runs = steps.html();
    let phases: Vec<&str> = select(&runs, ".deploy-run")
        .iter()
        .map(|run| attr(run, "data-phase"))
        .collect();
    assert_eq!(
        phases,
        ["deployed", "deployed", "deployed"],
        "{}",
        steps.body
    );
    let garbled = app
        .get("/deploys/under-way?repos=not-an-id&env=production")
        .await;
    assert_eq!(garbled.status, 400, "{}", garbled.body);

    // Posted again against what production served before: refused, nothing moves.
    let stale = post_form(&app, &promotion_form("el9")).await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(
        stale.body.contains("data-refusal=\"moved\""),
        "{}",
        stale.body
    );
}

#[tokio::test]
async fn a_finished_promotion_rolls_back_as_a_set_and_a_member_moved_alone_is_flagged() {
    let app = app(&MEMBERS).spawn().await;
    assert_eq!(post_form(&app, &promotion_form("el9")).await.status, 200);
    let page = app.get("/releases/el9").await;
    let html = page.html();
    let promotions = select(&html, "li[data-release-promotion]");
    assert_eq!(promotions.len(), 1);
    let id = attr(&promotions[0], "data-release-promotion").to_owned();
    // The member's own history names the release the deploy was part of.
    let versions = attr(
        &select(&html, "tr[data-release-member=baseos] th a")[0],
        "href",
    )
    .to_owned();
    let history = app.get(&versions.replace("/versions", "/history")).await;
    let history_html = history.html();
    let entry = select(
        &history_html,
        "[data-history-entry] [data-release-promotion]",
    );
    assert_eq!(entry.len(), 1, "{}", history.body);
    assert_eq!(attr(&entry[0], "data-release-promotion"), id);
    let rollback = select(&html, "button[data-release-rollback]");
    let url = attr(&rollback[0], "hx-get").to_owned();
    assert!(url.ends_with(&format!("rollback={id}")), "{url}");

    let confirm = app.get(&url).await;
    assert_eq!(confirm.status, 200, "{}", confirm.body);
    let html = confirm.html();
    assert_eq!(
        attr(&select(&html, "input[name='version.baseos']")[0], "value"),
        "1"
    );
    assert_eq!(
        select(&html, "input[name=rollback]").len(),
        1,
        "a rollback asks for its reason"
    );
    let mut body = "env=production&confirm=el9&rollback=1&reason=broke+yum".to_owned();
    for m in MEMBERS {
        body.push_str(&format!("&version.{m}=1&current.{m}=2"));
    }
    let back = post_form(&app, &body).await;
    assert_eq!(back.status, 200, "{}", back.body);
    for m in MEMBERS {
        assert_eq!(
            app.memory
                .serving_version(&format!("{m}-prod"))
                .unwrap()
                .get(),
            1,
            "{m}"
        );
    }

    // epel moved on its own since the rollback: flagged with what differs.
    promote_alone(&app.memory, "epel");
    let page = app.get("/releases/el9").await;
    let html = page.html();
    let drifted = select(&html, "tr[data-release-drift]");
    assert_eq!(drifted.len(), 1);
    assert_eq!(attr(&drifted[0], "data-release-member"), "epel");
    assert!(
        text(&drifted[0]).contains("moved on its own"),
        "{}",
        text(&drifted[0])
    );
}

/// Four members, each with `versions` versions, served by three environments.
fn four_members(
    versions: u64,
) -> impl FnOnce(&repo_console::adapters::memory::InMemoryPulp) + Send {
    move |pulp| {
        for name in ["m1", "m2", "m3", "m4"] {
            let id = pulp.add_repo(name, verified());
            for n in 1..=versions {
                pulp.add_version(&id, &[&format!("{name}-pkg-{n}")], &[]);
            }
            let live = pulp.publish(&id, repo_console::domain::repository::VersionNumber::new(1));
            for env in ["testing", "staging", "prod"] {
                pulp.add_distribution(&format!("{name}-{env}"), Some(&live));
            }
        }
    }
}

/// The port calls one release page makes over a world of `versions` versions per member.
async fn page_calls(versions: u64) -> Vec<&'static str> {
    use repo_console::domain::ids::ReleaseName;
    use repo_console::domain::release::Releases;
    let memory = repo_console::adapters::memory::InMemoryPulp::new(Default::default());
    four_members(versions)(&memory);
    let counting = std::sync::Arc::new(crate::counting::Counting::new(memory));
    let members = ["m1", "m2", "m3", "m4"].map(String::from).to_vec();
    let release = Releases::new([(ReleaseName::parse("four").unwrap(), members)]).unwrap();
    let app = crate::test_app::TestApp::builder()
        .upstream(counting.clone())
        .environments(repo_console::adapters::memory::demo::environments())
        .configure(move |state| state.releases(release))
        .spawn()
        .await;
    counting.take();
    let page = app.get("/releases/four").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(cells(&page).len(), 12, "4 members x 3 environments");
    let mut calls = counting.take();
    calls.sort();
    calls
}

#[tokio::test]
async fn the_release_page_costs_the_same_calls_whatever_the_members_version_counts() {
    let few = page_calls(3).await;
    let many = page_calls(60).await;
    assert_eq!(
        few, many,
        "the same calls with 3 and 60 versions per member"
    );
    println!(
        "release page, 4 members x 3 environments: {} port calls: {few:?}",
        few.len()
    );
    assert!(
        few.iter().all(|c| !c.starts_with("version")),
        "no version list is read: {few:?}"
    );
}
