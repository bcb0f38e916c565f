//! The versions page with environments (issue 23): for a small repository and rc-scale, with
//! one environment (production) and with five (four before production, each named by a
//! pattern, plus production), upstream requests per load and the median time of [`SAMPLES`]
//! loads, against the floor: the page's own calls issued directly in one concurrent round
//! (the repository, a screen of versions, every environment's distribution in one
//! `name__in` call), timed the same way. Prints, never asserts.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use repo_console::adapters::pulp::{PulpClient, PulpSettings};
use repo_console::domain::environment::{
    DistributionNaming, Environment, EnvironmentName, EnvironmentPath, NamePattern,
};

use super::{
    get, median, ms, page_load, session_cookie, spawn_console, Http, LatencyProxy, REPO_FIELDS,
    SAMPLES,
};

/// `count` environments: `e1`…`e<count-1>` named `{repo}-e<i>` (absent from Pulp: shown as
/// "no distribution", read all the same), then production, `repo` -> `production`.
fn path(count: usize, repo: &str, production: &str) -> EnvironmentPath {
    if count == 1 {
        return EnvironmentPath::production_only(HashMap::from([(
            repo.to_owned(),
            production.to_owned(),
        )]));
    }
    let mut environments: Vec<Environment> = (1..count)
        .map(|i| Environment {
            name: EnvironmentName::parse(&format!("e{i}")).expect("a name"),
            naming: DistributionNaming::new(
                Some(NamePattern::parse(&format!("{{repo}}-e{i}")).expect("a pattern")),
                HashMap::new(),
            ),
            requires_previous: false,
        })
        .collect();
    environments.push(Environment {
        name: EnvironmentName::production(),
        naming: DistributionNaming::new(None, [(repo.to_owned(), production.to_owned())]),
        requires_previous: false,
    });
    EnvironmentPath::new(environments).expect("a path")
}

/// A repository measured: its name, id, href, number of versions and production.
pub struct Measured<'a> {
    pub name: &'a str,
    pub id: &'a str,
    pub href: &'a str,
    pub versions: u64,
    pub production: &'a str,
}

pub async fn run(
    proxy: &LatencyProxy,
    settings: &PulpSettings,
    client: &Arc<PulpClient>,
    http: &Http,
    repos: &[Measured<'_>],
) {
    let cookie = session_cookie(&proxy.url, &settings.username, settings.password.expose()).await;
    let auth = [("cookie", cookie.as_str())];
    let api = format!("{}/pulp/api/v3/", proxy.url);
    println!("versions page with environments (one concurrent round whatever the versions or environments):");
    for repo in repos {
        for count in [1, 5] {
            let path = path(count, repo.name, repo.production);
            let names: Vec<String> = path
                .iter()
                .filter_map(|e| e.distribution_for(repo.name))
                .collect();
            let (console, _state) = spawn_console(client.clone(), path).await;
            let page = format!("{console}/repos/{}/versions", repo.id);
            // The first load learns the repository's name (the patterns need it).
            get(http, &page, &[]).await;
            let (time, per_load) = page_load(http, &page, proxy).await;
            let urls = [
                format!("{}{}?fields={REPO_FIELDS}", proxy.url, repo.href),
                format!("{}{}versions/?ordering=-number&offset=0&limit=51&fields=pulp_href,pulp_created,number,content_summary", proxy.url, repo.href),
                format!("{api}distributions/rpm/rpm/?name__in={}&fields=pulp_href,name,base_path,publication&limit=100&offset=0", names.join(",")),
            ];
            let mut floors = Vec::new();
            for _ in 0..SAMPLES {
                let started = Instant::now();
                futures::future::join_all(urls.iter().map(|u| get(http, u, &auth))).await;
                floors.push(started.elapsed());
            }
            let floor = median(floors);
            println!(
                "  {:<12} {:>6} versions, {count} environment{}: page {} , {per_load:.1} requests a load; floor {} -> {:.2}x",
                repo.name,
                repo.versions,
                if count == 1 { " " } else { "s" },
                ms(time),
                ms(floor),
                time.as_secs_f64() / floor.as_secs_f64()
            );
        }
    }
}
