//! The versions page at scale behind a distant Pulp: the test suite's real Pulp seeded with
//! `scripts/bench/seed_scale.py` (rc-scale: hundreds of versions; hundreds of distributions),
//! behind a proxy adding LATENCY_MS (default 20) to every request. Prints, never asserts:
//! the page's time (median of 20), the floor (the calls the page needs, in one concurrent
//! round), requests per load, 20 concurrent loads, pulp-cli's time for the same listing, and
//! the console process's peak memory under 50 concurrent users.
//!
//!     source target/pulp/env && cargo bench --bench scale
//!
//! `cargo bench --bench scale -- dashboard` measures only the dashboard at size (a Pulp seeded
//! with `scripts/bench/seed_dashboard.py`: 1,000 repositories, 5,000 distributions; see
//! `scale/dashboard.rs`); `-- versions` only the rest.

#[path = "scale/dashboard.rs"]
mod dashboard;
#[path = "scale/environments.rs"]
mod environments;
#[path = "common/figures.rs"]
mod figures;
#[path = "scale/proxy.rs"]
mod proxy;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::coalescing::Coalescing;
use repo_console::adapters::files::audit::JsonlAuditSink;
use repo_console::adapters::identity::fixed::FixedOperator;
use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::adapters::web;
use repo_console::app::{deploy, AppState};
use repo_console::domain::environment::EnvironmentPath;
use repo_console::ports::{PageRequest, RepositoryManager};
use repo_console::wiring::default_pulp_settings;

use figures::{env, median, ms};
use proxy::LatencyProxy;

type Http = Client<hyper_util::client::legacy::connect::HttpConnector, Empty<Bytes>>;

const REPO_FIELDS: &str = "pulp_href,name,repo_config,checksum_type,metadata_checksum_type,gpgcheck,repo_gpgcheck,metadata_signing_service,latest_version_href,remote,retain_repo_versions";

/// The href of the distribution called `name`.
async fn distribution_named(http: &Http, api: &str, auth: &[(&str, &str)], name: &str) -> String {
    let url = format!("{api}distributions/rpm/rpm/?name={name}&fields=pulp_href");
    let (_, body) = fetch(http, &url, auth).await;
    let found: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    found["results"][0]["pulp_href"]
        .as_str()
        .unwrap_or_else(|| panic!("no {name}: run scripts/bench/seed_scale.py"))
        .to_owned()
}

/// GET `url` with these headers; the status and the body.
async fn fetch(http: &Http, url: &str, headers: &[(&str, &str)]) -> (u16, Bytes) {
    let mut request = hyper::Request::get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = http
        .request(request.body(Empty::new()).expect("a request"))
        .await
        .expect("an answer");
    let status = response.status().as_u16();
    let body = response.into_body().collect().await.expect("a body");
    (status, body.to_bytes())
}

/// GET `url` with these headers; the status and the body's length.
async fn get(http: &Http, url: &str, headers: &[(&str, &str)]) -> (u16, usize) {
    let (status, body) = fetch(http, url, headers).await;
    (status, body.len())
}

/// A Pulp session cookie, through the proxy (one login: basic auth costs ~0.5 s a call).
async fn session_cookie(proxy: &str, user: &str, password: &str) -> String {
    use base64::Engine;
    let encode = |text: &str| base64::engine::general_purpose::STANDARD.encode(text);
    let http = Client::builder(TokioExecutor::new()).build_http::<Empty<Bytes>>();
    let request = hyper::Request::post(format!("{proxy}/pulp/api/v3/login/"))
        .header(
            "authorization",
            format!("Basic {}", encode(&format!("{user}:{password}"))),
        )
        .body(Empty::new())
        .expect("a request");
    let response = http.request(request).await.expect("login answers");
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|c| c.split(';').next())
        .collect::<Vec<_>>()
        .join("; ")
}

async fn spawn_console(client: Arc<PulpClient>, path: EnvironmentPath) -> (String, AppState) {
    let dir = std::env::temp_dir().join(format!("repo-console-bench-{}", std::process::id()));
    let state = AppState::builder(
        client.clone(),
        client.clone(),
        Arc::new(JsonlAuditSink::new(dir.join("audit.jsonl"))),
        Arc::new(SystemClock),
        Arc::new(FixedOperator::default()),
    )
    .page_reads(Arc::new(Coalescing::new(client)))
    .environments(path)
    .build();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port");
    let address = format!("http://{}", listener.local_addr().expect("address"));
    tokio::spawn(web::serve(
        listener,
        state.clone(),
        std::future::pending(),
        Duration::from_secs(1),
    ));
    (address, state)
}

/// Deploys version `target` of `id` through the console (its audit then holds a change of
/// production: drift is judged from it).
async fn deploy_through_console(state: &AppState, id: &str, target: u64) {
    use repo_console::domain::deploy::{DeployRequest, Intent, SeenLive};
    use repo_console::domain::identity::Operator;
    use repo_console::domain::repository::{RepoId, VersionNumber};
    let id = RepoId::parse(id).expect("a repository id");
    let request = DeployRequest {
        target: VersionNumber::new(target),
        environment: repo_console::domain::environment::EnvironmentName::production(),
        confirm: "rc-scale".into(),
        seen_live: SeenLive::NotSent,
        intent: Intent::Deploy(None),
        override_freeze: false,
    };
    let outcome = deploy::deploy(state, &id, &request, &Operator::placeholder()).await;
    assert!(
        matches!(outcome, deploy::DeployOutcome::Deployed { .. }),
        "the deploy of v{target}: {outcome:?}"
    );
}

/// Timed samples of the page and of the floor (medians; the machine is shared with Pulp).
const SAMPLES: u32 = 20;
/// Timed runs of pulp-cli (each starts Python: seconds).
const CLI_RUNS: u32 = 5;

/// The page's median time over [`SAMPLES`] loads and its upstream requests per load (after
/// one load, so production's publication is known).
async fn page_load(http: &Http, page: &str, proxy: &LatencyProxy) -> (Duration, f64) {
    let (status, _) = get(http, page, &[]).await;
    assert_eq!(status, 200, "the versions page answers");
    let before = proxy.requests();
    let mut samples = Vec::new();
    for _ in 0..SAMPLES {
        let started = Instant::now();
        get(http, page, &[]).await;
        samples.push(started.elapsed());
    }
    let per_load = (proxy.requests() - before) as f64 / f64::from(SAMPLES);
    (median(samples), per_load)
}

async fn find_scale_repo(client: &PulpClient) -> (String, String) {
    let mut offset = 0;
    loop {
        let page = client
            .list_repos(PageRequest { offset, limit: 100 })
            .await
            .expect("repositories");
        if let Some(repo) = page
            .items
            .iter()
            .find(|r| r.name.as_deref() == Some("rc-scale"))
        {
            return (repo.id.to_string(), repo.href.clone());
        }
        offset += 100;
        assert!(
            offset < page.total,
            "no rc-scale: run scripts/bench/seed_scale.py first"
        );
    }
}

fn pulp_cli() -> Option<std::path::PathBuf> {
    let candidates = [
        std::env::var("PULP_CLI").ok().map(Into::into),
        std::env::var("HOME").ok().map(|h| {
            std::path::PathBuf::from(h).join(".cache/repo-console/pulp-cli-venv/bin/pulp")
        }),
    ];
    candidates.into_iter().flatten().find(|p| p.is_file())
}

fn peak_rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM"))?.to_owned();
            line.split_whitespace().nth(1)?.parse().ok()
        })
        .unwrap_or(0)
}

#[tokio::main]
async fn main() {
    // `cargo test --all-targets` runs benches too (without `--bench`): this one needs the
    // seeded Pulp and minutes, so it runs under `cargo bench` only.
    if !std::env::args().any(|arg| arg == "--bench") {
        println!("scale benchmark: run it with `cargo bench --bench scale` (see its header)");
        return;
    }
    let latency = Duration::from_millis(
        std::env::var("LATENCY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20),
    );
    let (base, user, password) = (
        env("PULP_BASE_URL"),
        env("PULP_USERNAME"),
        env("PULP_PASSWORD"),
    );
    let proxy = LatencyProxy::start(&base, latency).await;
    let settings = PulpSettings {
        username: user.clone(),
        password: repo_console::adapters::pulp::Secret::new(password.clone()),
        ..default_pulp_settings(&proxy.url).expect("settings")
    };
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let only = |part: &str| std::env::args().any(|arg| arg == part);
    if !only("versions") && !only("environments") {
        dashboard::run(&proxy, &settings, &http).await;
    }
    if only("dashboard") {
        return;
    }
    let client = Arc::new(PulpClient::new(settings.clone()).expect("client"));
    let (id, repo_href) = find_scale_repo(&client).await;
    let production = HashMap::from([("rc-scale".into(), "rc-scale-prod".into())]);
    if only("environments") {
        return with_environments(&proxy, &settings, &client, &http, &id, &repo_href).await;
    }
    let (console, state) =
        spawn_console(client.clone(), EnvironmentPath::production_only(production)).await;
    let page = format!("{console}/repos/{id}/versions");

    let before = proxy.requests();
    let (status, bytes) = get(&http, &page, &[]).await;
    assert_eq!(status, 200, "the versions page answers");
    let first_load = proxy.requests() - before;
    // The bench's audit log is new: the console never changed production yet.
    let (page_time, per_load) = page_load(&http, &page, &proxy).await;

    let cookie = session_cookie(&proxy.url, &user, &password).await;
    let auth = [("cookie", cookie.as_str())];
    let api = format!("{}/pulp/api/v3/", proxy.url);
    let prod = distribution_named(&http, &api, &auth, "rc-scale-prod").await;
    let prod_uuid = prod
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .expect("a uuid");
    // Exactly what one load asks for once production's distribution and publication are
    // known (after the first load), as one concurrent round.
    // Production's record (its changes upstream) is read once the console changed
    // production, to judge drift.
    let floor_urls = [
        format!("{}{repo_href}?fields={REPO_FIELDS}", proxy.url),
        format!("{}{repo_href}versions/?ordering=-number&offset=0&limit=51&fields=pulp_href,pulp_created,number,content_summary", proxy.url),
        format!("{api}distributions/rpm/rpm/?name__in=rc-scale-prod&fields=pulp_href,name,base_path,publication&limit=100&offset=0"),
    ];
    let record_url = format!("{api}tasks/?reserved_resources=prn:rpm.rpmdistribution:{prod_uuid}&ordering=-pulp_created&fields=pulp_href,pulp_created,state,created_by,logging_cid&limit=20");
    let floor_of = |urls: Vec<String>| {
        let (http, auth) = (&http, &auth);
        async move {
            let mut floors = Vec::new();
            for _ in 0..SAMPLES {
                let started = Instant::now();
                futures::future::join_all(urls.iter().map(|u| get(http, u, auth))).await;
                floors.push(started.elapsed());
            }
            median(floors)
        }
    };
    let floor = floor_of(floor_urls.to_vec()).await;

    let before = proxy.requests();
    let started = Instant::now();
    futures::future::join_all((0..20).map(|_| get(&http, &page, &[]))).await;
    let twenty = started.elapsed();
    let twenty_requests = proxy.requests() - before;

    println!(
        "versions page of rc-scale behind {} ms of latency ({} KiB of HTML):",
        latency.as_millis(),
        bytes / 1024
    );
    println!("  page (median of {SAMPLES})           {}", ms(page_time));
    println!(
        "  floor (needed calls at once)  {}  -> page/floor {:.2}x",
        ms(floor),
        page_time.as_secs_f64() / floor.as_secs_f64()
    );
    println!("  upstream requests per load    {per_load:.1} (the first load: {first_load})");
    println!(
        "  20 concurrent loads           {} , {twenty_requests} upstream requests",
        ms(twenty)
    );

    for (what, path) in [
        (
            "confirm step (preview and diff)",
            format!("{console}/repos/{id}/deploy/confirm?version=599"),
        ),
        ("dashboard", format!("{console}/")),
    ] {
        get(&http, &path, &[("hx-request", "true")]).await;
        let before = proxy.requests();
        let mut samples = Vec::new();
        for _ in 0..5 {
            let started = Instant::now();
            get(&http, &path, &[("hx-request", "true")]).await;
            samples.push(started.elapsed());
        }
        let requests = (proxy.requests() - before) as f64 / 5.0;
        println!(
            "  {what:<33}{} , {requests:.1} upstream requests a load",
            ms(median(samples))
        );
    }

    // Production changed by the console (v599), then given back its seeded version (v600).
    deploy_through_console(&state, &id, 599).await;
    let mut first_loads = Vec::new();
    for _ in 0..2 {
        let before = proxy.requests();
        let started = Instant::now();
        get(&http, &page, &[]).await;
        first_loads.push(format!(
            "{}, {} requests",
            ms(started.elapsed()),
            proxy.requests() - before
        ));
    }
    let (deployed_time, deployed_per_load) = page_load(&http, &page, &proxy).await;
    let deployed_floor = floor_of(floor_urls.to_vec()).await;
    let mut with_record = floor_urls.to_vec();
    with_record.push(record_url);
    let record_floor = floor_of(with_record).await;
    deploy_through_console(&state, &id, 600).await;
    println!("  after a deploy through the console (drift judged on production's record):");
    println!(
        "    first two loads             {} (the record read; read again at the revision the deploy wrote)",
        first_loads.join(" ; ")
    );
    println!(
        "      (floor with the record: the four calls at once {})",
        ms(record_floor)
    );
    println!(
        "    then (median of {SAMPLES})         {} , {deployed_per_load:.1} upstream requests per load (the record kept: production unwritten)",
        ms(deployed_time)
    );
    println!(
        "    floor (the three calls)     {}  -> page/floor {:.2}x",
        ms(deployed_floor),
        deployed_time.as_secs_f64() / deployed_floor.as_secs_f64()
    );

    match pulp_cli() {
        Some(pulp) => {
            // Warm the page again (production was given back v600: its record is read anew).
            for _ in 0..2 {
                get(&http, &page, &[]).await;
            }
            // Each round times pulp-cli once, then the page, so both see the machine alike.
            let (mut runs, mut ratios) = (Vec::new(), Vec::new());
            for _ in 0..CLI_RUNS {
                let started = Instant::now();
                let out = std::process::Command::new(&pulp)
                    .args(["--base-url", &proxy.url, "--username", &user, "--password", &password])
                    .args(["rpm", "repository", "version", "list", "--repository", "rc-scale", "--limit", "1000"])
                    .output()
                    .expect("pulp-cli runs");
                assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
                let cli = started.elapsed();
                let mut loads = Vec::new();
                for _ in 0..10 {
                    let started = Instant::now();
                    get(&http, &page, &[]).await;
                    loads.push(started.elapsed());
                }
                runs.push(cli);
                ratios.push(cli.as_secs_f64() / median(loads).as_secs_f64());
            }
            let cli = median(runs);
            println!(
                "  pulp rpm repository version list: {} -> console {:.1}x faster ({:.1}x after a deploy)",
                ms(cli),
                cli.as_secs_f64() / page_time.as_secs_f64(),
                cli.as_secs_f64() / deployed_time.as_secs_f64()
            );
            ratios.sort_by(f64::total_cmp);
            let listed: Vec<String> = ratios.iter().map(|r| format!("{r:.1}x")).collect();
            println!(
                "    paired rounds (pulp-cli, then 10 page loads; the record kept): {} , median {:.1}x",
                listed.join(" "),
                ratios[ratios.len() / 2]
            );
        }
        None => println!("  pulp-cli: not installed (python3 -m venv ~/.cache/repo-console/pulp-cli-venv && ~/.cache/repo-console/pulp-cli-venv/bin/pip install pulp-cli==0.41.1)"),
    }
    with_environments(&proxy, &settings, &client, &http, &id, &repo_href).await;
    memory_under_load(&proxy.url, &user, &password, &id).await;
}

/// The versions page of rc-verified (a few versions) and rc-scale with one and five
/// environments (see `scale/environments.rs`).
async fn with_environments(
    proxy: &LatencyProxy,
    settings: &PulpSettings,
    client: &Arc<PulpClient>,
    http: &Http,
    scale_id: &str,
    scale_href: &str,
) {
    use repo_console::ports::RepositoryManager;
    let versions = |id: &str| {
        let id = repo_console::domain::repository::RepoId::parse(id).expect("an id");
        let client = client.clone();
        async move {
            client
                .version_page(
                    &id,
                    repo_console::ports::PageRequest {
                        offset: 0,
                        limit: 1,
                    },
                )
                .await
                .expect("versions")
                .total
        }
    };
    let small = distribution_named_repo(client, "rc-verified").await;
    let (small_count, scale_count) = (versions(&small.0).await, versions(scale_id).await);
    let repos = [
        environments::Measured {
            name: "rc-verified",
            id: &small.0,
            href: &small.1,
            versions: small_count,
            production: "rc-verified-prod",
        },
        environments::Measured {
            name: "rc-scale",
            id: scale_id,
            href: scale_href,
            versions: scale_count,
            production: "rc-scale-prod",
        },
    ];
    environments::run(proxy, settings, client, http, &repos).await;
}

/// The id and href of the repository called `name`.
async fn distribution_named_repo(client: &PulpClient, name: &str) -> (String, String) {
    use repo_console::ports::{PageRequest, RepositoryManager};
    let mut offset = 0;
    loop {
        let page = client
            .list_repos(PageRequest { offset, limit: 100 })
            .await
            .expect("repositories");
        if let Some(repo) = page.items.iter().find(|r| r.name.as_deref() == Some(name)) {
            return (repo.id.to_string(), repo.href.clone());
        }
        offset += 100;
        assert!(
            offset < page.total,
            "no {name} in this Pulp: run scripts/pulp/up.sh"
        );
    }
}

/// The console binary over the proxy, 50 users loading the page 5 times each: peak memory.
async fn memory_under_load(proxy: &str, user: &str, password: &str, id: &str) {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("a port")
        .local_addr()
        .expect("addr")
        .port();
    let dir = std::env::temp_dir().join(format!("repo-console-bench-rss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a directory");
    let config = dir.join("console.toml");
    std::fs::write(&config, "[production]\n\"rc-scale\" = \"rc-scale-prod\"\n").expect("config");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_repo-console"))
        .args(["--listen", &format!("127.0.0.1:{port}"), "--config"])
        .arg(&config)
        .arg("--audit-path")
        .arg(dir.join("audit.jsonl"))
        .env("REPO_CONSOLE_PULP_URL", proxy)
        .env("REPO_CONSOLE_PULP_USERNAME", user)
        .env("REPO_CONSOLE_PULP_PASSWORD", password)
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the console starts");
    let http: Http = Client::builder(TokioExecutor::new()).build_http();
    let page = format!("http://127.0.0.1:{port}/repos/{id}/versions");
    for _ in 0..50 {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let idle = peak_rss_kib(child.id());
    let started = Instant::now();
    futures::future::join_all((0..50).map(|_| async {
        for _ in 0..5 {
            get(&http, &page, &[]).await;
        }
    }))
    .await;
    let peak = peak_rss_kib(child.id());
    println!(
        "console binary, 50 users x 5 loads: {} ; peak memory {} MiB (after start {} MiB)",
        ms(started.elapsed()),
        peak / 1024,
        idle / 1024
    );
    let _ = child.kill();
    let _ = child.wait();
}
