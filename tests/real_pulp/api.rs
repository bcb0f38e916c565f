//! A pipeline's deploy over the JSON API (issue 25) against the real Pulp, on rc-api (v1..v3,
//! a publication of each; rc-api-prod serves v1 between tests): a console with one bearer
//! token, `ci-pipeline`, served as the binary serves it; over HTTP with
//! `Authorization: Bearer`, what production serves, the changes it would get (compared with
//! the packages Pulp lists in each version), a deploy with a stale `expected_current`
//! (refused, Pulp unchanged), then with the right one (Pulp serves the target), and the
//! deploy read back from the audit log. Production is put back at v1 first and last.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

use repo_console::adapters::clock_system::SystemClock;
use repo_console::adapters::identity::bearer::{ApiToken, BearerTokens};
use repo_console::domain::identity::{Operator, Scope};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::console::{enc, over_upstream, Console, Reply};
use super::seeded::SeededProduction;
use super::support::{exclusive, required_pulp, TestPulp};

const REPO: &str = "rc-api";
const TOKEN: &str = "ci-pipeline-7f3c9a1e-real-pulp";

/// The console over the real Pulp, rc-api's production named, taking API writes from the
/// holder of `TOKEN` (ci-pipeline, group ci; the console keeps its SHA-256 only).
async fn console(pulp: &TestPulp) -> Console {
    let digest: String = Sha256::digest(TOKEN.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let ci = Operator::new("ci-pipeline")
        .expect("a name")
        .with_groups(vec!["ci".into()]);
    let scopes = ["read", "sync", "deploy:*"].map(|s| Scope::parse(s).expect("a scope"));
    let token = ApiToken::new(ci, &digest, scopes.to_vec()).expect("a digest");
    let callers = BearerTokens::new(vec![token], None, Arc::new(SystemClock));
    let production = HashMap::from([(REPO.to_owned(), format!("{REPO}-prod"))]);
    over_upstream(Arc::new(pulp.client()), 25)
        .configure(move |state| state.production(production).api_callers(Arc::new(callers)))
        .spawn()
        .await
}

/// A call as a pipeline makes it: the bearer token, JSON in and out.
async fn call(console: &Console, method: &str, path: &str, body: Option<&Value>) -> Reply {
    let bearer = format!("Bearer {TOKEN}");
    let headers = [
        ("authorization", bearer.as_str()),
        ("accept", "application/json"),
        ("content-type", "application/json"),
    ];
    let body = body.map(Value::to_string).unwrap_or_default();
    console.client.send(method, path, &headers, &body).await
}

fn json_of(reply: &Reply) -> Value {
    assert!(
        reply.header("content-type").starts_with("application/json"),
        "{}: {}",
        reply.header("content-type"),
        reply.body
    );
    serde_json::from_str(&reply.body).unwrap_or_else(|e| panic!("{e}: {}", reply.body))
}

/// The packages Pulp lists in version `n` of the repository at `repo`: (name, arch) -> the
/// EVRs, as rpm writes them (`epoch:` when not 0).
fn pulp_packages(pulp: &TestPulp, repo: &str, n: u64) -> BTreeMap<(String, String), Vec<String>> {
    let version = format!("{repo}versions/{n}/");
    let list = pulp.raw_ok(
        "GET",
        &format!(
            "content/rpm/packages/?repository_version={}&limit=1000\
             &fields=name,epoch,version,release,arch",
            enc(&version)
        ),
        None,
    );
    let results = list["results"].as_array().expect("results");
    assert_eq!(
        list["count"].as_u64(),
        Some(results.len() as u64),
        "one page"
    );
    let mut packages: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for p in results {
        let field = |k: &str| p[k].as_str().unwrap_or_default().to_owned();
        let epoch = match field("epoch").as_str() {
            "" | "0" => String::new(),
            e => format!("{e}:"),
        };
        let evr = format!("{epoch}{}-{}", field("version"), field("release"));
        packages
            .entry((field("name"), field("arch")))
            .or_default()
            .push(evr);
    }
    packages.values_mut().for_each(|evrs| evrs.sort());
    packages
}

/// Dotted numeric versions, as the seed's packages have (`1.2-1` < `1.10-1`).
fn by_numbers(a: &str, b: &str) -> Ordering {
    let numbers = |s: &str| -> Vec<u64> {
        s.split(['.', '-', ':'])
            .map(|n| n.parse().unwrap_or(0))
            .collect()
    };
    numbers(a).cmp(&numbers(b))
}

/// What changes from `old` to `new`, worked out from Pulp's lists: (name, kind, old, new).
fn expected_changes(
    old: &BTreeMap<(String, String), Vec<String>>,
    new: &BTreeMap<(String, String), Vec<String>>,
) -> BTreeSet<(String, String, Vec<String>, Vec<String>)> {
    let keys: BTreeSet<&(String, String)> = old.keys().chain(new.keys()).collect();
    keys.into_iter()
        .filter_map(|key| {
            let (before, after) = (
                old.get(key).cloned().unwrap_or_default(),
                new.get(key).cloned().unwrap_or_default(),
            );
            let newest = |v: &[String]| v.iter().max_by(|a, b| by_numbers(a, b)).cloned();
            let kind = match (newest(&before), newest(&after)) {
                _ if before == after => return None,
                (None, _) => "added",
                (_, None) => "removed",
                (Some(b), Some(a)) if by_numbers(&a, &b) == Ordering::Greater => "upgraded",
                _ => "downgraded",
            };
            Some((key.0.clone(), kind.to_owned(), before, after))
        })
        .collect()
}

#[tokio::test]
#[ignore = "needs a real Pulp"]
async fn a_pipeline_reads_compares_and_deploys_over_the_json_api() {
    let pulp = required_pulp();
    let _guard = exclusive(REPO).await;
    let began = Instant::now();
    let production = SeededProduction::at_v1(pulp, REPO);
    let console = console(&production.pulp).await;
    let repository = format!("/api/v1/repositories/{}", production.id);
    let before = production.state();
    assert_eq!(before.version, 1);

    // What production serves, as Pulp says.
    let shown = call(&console, "GET", &repository, None).await;
    assert_eq!(shown.status, 200, "{}", shown.body);
    let shown = json_of(&shown);
    assert_eq!(shown["uuid"], production.id.to_string());
    assert_eq!(shown["name"], REPO);
    assert_eq!(shown["verification"]["badge"], "verified", "{shown}");
    assert_eq!(shown["verification"]["gpgcheck"], true);
    assert_eq!(shown["verification"]["repo_gpgcheck"], true);
    assert_eq!(shown["versions"], 4, "v0..v3");
    let environments = shown["environments"].as_array().expect("environments");
    assert_eq!(environments.len(), 1, "{shown}");
    let prod = &environments[0];
    assert_eq!(prod["name"], "production");
    assert_eq!(prod["serving"].as_u64(), Some(before.version), "{shown}");
    assert_eq!(prod["drift"], false);
    assert_eq!(prod["no_distribution"], false);
    let serving = prod["serving"].as_u64().expect("a version");

    // What the deploy would change, against the packages Pulp lists in each version.
    let target = 3;
    let compared = call(
        &console,
        "GET",
        &format!("{repository}/changes?from={serving}&to={target}"),
        None,
    )
    .await;
    assert_eq!(compared.status, 200, "{}", compared.body);
    let compared = json_of(&compared);
    assert_eq!(
        (&compared["repository"], &compared["from"], &compared["to"]),
        (&json!(REPO), &json!(serving), &json!(target))
    );
    let listed: BTreeSet<(String, String, Vec<String>, Vec<String>)> = compared["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .map(|p| {
            let evrs = |k: &str| -> Vec<String> {
                let mut v: Vec<String> = p[k]
                    .as_array()
                    .expect("EVRs")
                    .iter()
                    .map(|e| e.as_str().expect("an EVR").to_owned())
                    .collect();
                v.sort();
                v
            };
            assert_eq!(p["arch"], "noarch", "{p}");
            (
                p["name"].as_str().expect("a name").to_owned(),
                p["kind"].as_str().expect("a kind").to_owned(),
                evrs("old"),
                evrs("new"),
            )
        })
        .collect();
    let expected = expected_changes(
        &pulp_packages(&production.pulp, &production.repo, serving),
        &pulp_packages(&production.pulp, &production.repo, target),
    );
    assert_eq!(listed, expected, "the API's changes are Pulp's");
    let kinds: BTreeSet<(&str, &str)> = listed
        .iter()
        .map(|(name, kind, _, _)| (name.as_str(), kind.as_str()))
        .collect();
    assert_eq!(
        kinds,
        BTreeSet::from([
            ("alpha", "downgraded"),
            ("beta", "removed"),
            ("extra", "added"),
            ("hello", "upgraded"),
            ("world", "added"),
        ]),
        "the story seed.sh made (rc-api v1 -> v3)"
    );

    // A deploy against what the pipeline wrongly believes production serves: refused.
    let deployments = format!("{repository}/deployments");
    let stale = json!({"version": target, "environment": "production", "expected_current": 2});
    let moved = call(&console, "POST", &deployments, Some(&stale)).await;
    assert_eq!(moved.status, 409, "{}", moved.body);
    let error = json_of(&moved);
    assert_eq!(error["error"]["code"], "moved", "{error}");
    assert_eq!(
        production.state(),
        before,
        "Pulp unchanged: no publication, no update"
    );
    assert!(console.audit_lines().is_empty(), "nothing audited");

    // Against what it serves: deployed.
    let right = json!({"version": target, "environment": "production",
                       "expected_current": serving, "reason": "pipeline run 4242"});
    let deployed = call(&console, "POST", &deployments, Some(&right)).await;
    assert_eq!(deployed.status, 200, "{}", deployed.body);
    let outcome = json_of(&deployed);
    assert_eq!(outcome["outcome"], "deployed", "{outcome}");
    assert_eq!(outcome["production_changed"], "yes");
    assert_eq!(outcome["environment"], "production");
    assert_eq!(
        (&outcome["from"], &outcome["to"]),
        (&json!(serving), &json!(target))
    );
    let deploy_id = outcome["deploy_id"].as_str().expect("a deploy id");
    let after = production.state();
    assert_eq!(after.version, target, "Pulp serves v{target}");
    assert!(
        !production.seeded.contains(&after.publication),
        "a publication the deploy made"
    );
    assert_eq!(after.publications, before.publications + 1);
    assert_eq!(after.updates, before.updates + 1, "one distribution update");
    let tasks = production.pulp.raw_ok(
        "GET",
        &format!("tasks/?logging_cid={}&fields=name", enc(deploy_id)),
        None,
    );
    assert!(
        tasks["count"].as_u64().unwrap_or(0) >= 2,
        "Pulp's tasks carry the deploy id (publish, update): {tasks}"
    );

    // Read back from the audit log.
    let back = call(
        &console,
        "GET",
        &format!("/api/v1/deployments/{deploy_id}"),
        None,
    )
    .await;
    assert_eq!(back.status, 200, "{}", back.body);
    let back = json_of(&back);
    assert_eq!(back["deploy_id"], deploy_id);
    assert_eq!(back["outcome"], "deployed", "{back}");
    assert_eq!(back["production_changed"], "yes");
    assert_eq!(back["operator"], "ci-pipeline", "the token's name");
    assert_eq!(back["repository_uuid"], production.id.to_string());
    assert_eq!(back["repository_name"], REPO);
    assert_eq!(back["environment"], "production");
    assert_eq!(
        (&back["from"], &back["to"]),
        (&json!(serving), &json!(target))
    );
    assert_eq!(back["kind"], "deploy");
    assert_eq!(back["reason"], "pipeline run 4242");
    assert!(back["finished"].is_string(), "{back}");
    let lines = console.audit_lines();
    assert_eq!(lines.len(), 2, "started, deployed: {lines:#?}");
    assert_eq!(lines[1]["deploy_id"], deploy_id);
    assert_eq!(lines[1]["publication"], after.publication.as_str());
    println!(
        "TIMING api (a pipeline's reads, compare, refused and right deploys, read back): {:.1} s",
        began.elapsed().as_secs_f64()
    );
}
