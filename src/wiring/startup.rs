//! Startup: builds the adapters the configuration names and wires them into the app.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::adapters::clock_system::SystemClock;
use crate::adapters::coalescing::Coalescing;
use crate::adapters::identity::bearer::BearerTokens;
use crate::adapters::memory::{demo, demo_pulp, MemoryOptions};
use crate::adapters::metrics::Metrics;
use crate::adapters::pulp::{PulpClient, SetupError};
use crate::adapters::web;
use crate::app::events::delivery::Deliverer;
use crate::app::{AppState, DiffAhead};
use crate::domain::environment::EnvironmentPath;
use crate::ports::{ContentCatalog, EventMetrics, RepositoryManager};

use super::audit_sinks;
use super::background::{self, Background};
use crate::wiring::config::settings::Config;
use crate::wiring::sections::environments::demo_path;

/// Which upstream the console talks to, for the startup log.
pub enum Upstream {
    Demo,
    Pulp {
        base_url: String,
        from_cli: Option<std::path::PathBuf>,
    },
}

/// Builds the state from the configuration, and what delivers its events to the webhooks;
/// fails when the Pulp settings are unusable.
pub async fn build_state(
    config: &Config,
) -> Result<(AppState, Upstream, Option<Deliverer>), String> {
    // The console's one registry of metrics: every part that measures reports to it.
    let metrics: Arc<dyn EventMetrics> = Arc::new(Metrics::new());
    let (manager, content, served, upstream) = upstream(config, metrics.clone())
        .map_err(|e| format!("cannot use the Pulp settings: {e}"))?;
    let built = audit_sinks::build(&config.audit, &config.diffs)
        .await
        .map_err(|e| format!("cannot use the audit sink (audit.sink): {e}"))?;
    let audit = built.sink;
    tracing::info!(sink = %config.audit.sink, target = %audit.target(), "audit log");
    // The demo's versions live as long as the process: nothing of them is worth keeping.
    let diff_store = built.diff_store.filter(|_| !config.uses_demo());
    match &diff_store {
        Some(store) => tracing::info!(target = %store.target(), "computed diffs are kept"),
        None => tracing::info!("computed diffs are kept in memory only"),
    }
    if let crate::wiring::sections::identity::IdentitySettings::ProxyHeader {
        header,
        groups_header,
        trusted_proxies,
        matching,
    } = &config.identity
    {
        tracing::info!(%header, ?groups_header, ?trusted_proxies, ?matching, "operators are named by a trusted proxy's header");
    }
    let reads = Arc::new(Coalescing::new(manager.clone()));
    // API callers: a bearer token, else the trusted proxy's identity (never the placeholder).
    let proxy = matches!(
        config.identity,
        crate::wiring::sections::identity::IdentitySettings::ProxyHeader { .. }
    )
    .then(|| config.identity.adapter());
    let tokens: Vec<&str> = config
        .api_tokens
        .iter()
        .map(|t| t.operator.as_str())
        .collect();
    tracing::info!(?tokens, proxy = proxy.is_some(), "JSON API callers");
    let clock: Arc<dyn crate::ports::Clock> = Arc::new(SystemClock);
    let api_callers = Arc::new(BearerTokens::new(
        config.api_tokens.clone(),
        proxy,
        clock.clone(),
    ));
    let (identity, sign_in) = match &config.identity {
        crate::wiring::sections::identity::IdentitySettings::Oidc(oidc) => {
            let sign_in =
                sign_in(oidc, built.sessions.clone(), clock.clone(), metrics.clone()).await?;
            tracing::info!(issuer = %oidc.provider.issuer, client_id = %oidc.provider.client_id, sessions = %built.sessions.target(), "operators sign in with an OpenID Connect provider");
            let adapter: Arc<dyn crate::ports::OperatorIdentity> = Arc::new(
                crate::adapters::identity::oidc::session_cookie::SessionCookie::new(
                    sign_in.clone(),
                ),
            );
            (adapter, Some(sign_in))
        }
        _ => (config.identity.adapter(), None),
    };
    let state = AppState::builder(manager.clone(), content, audit, clock, identity)
        .page_reads(reads)
        .demo(config.uses_demo())
        .metrics(metrics.clone())
        .api_callers(api_callers)
        .environments(environments(config))
        .policy(config.policy.clone())
        .tokens(crate::domain::policy::TokenRoster::new(
            config.api_tokens.iter().map(|t| t.standing()).collect(),
        ))
        .releases(config.releases.clone())
        .page_size(config.page_size)
        .write_limit(config.writes_per_minute)
        .question_limit(config.anonymous_exposure_per_minute);
    let state = match sign_in {
        Some(sign_in) => state.sign_in(sign_in),
        None => state,
    };
    let state = if config.diffs.compute_ahead {
        state.diff_ahead(DiffAhead::default())
    } else {
        state
    };
    let state = match built.replica_lock {
        Some(lock) => state.replica_lock(lock),
        None => state,
    };
    let followed = match config.uses_demo() {
        true => {
            let production = environments(config).last().name.clone();
            Some(super::demo_edges::edges(
                manager.clone(),
                &production,
                config.edge_pulps.follow.clone(),
                built.edge_states.clone(),
            ))
        }
        false => config
            .edge_pulps
            .followed(config.pulp_settings(), built.edge_states.clone())
            .map_err(|e| format!("edges: {e}"))?,
    };
    let state = match followed {
        Some(edges) => {
            let names: Vec<&str> = edges.followed().iter().map(|e| e.name.as_str()).collect();
            tracing::info!(?names, kept = %edges.kept_where(), "edge Pulps followed after every promotion");
            state.edges(edges)
        }
        None => state,
    };
    let state = match diff_store {
        Some(store) => state.diff_store(store),
        None => state,
    };
    let state = match built.cve_index.filter(|_| !config.uses_demo()) {
        Some(store) => {
            tracing::info!(target = %store.target(), "the CVE index is kept");
            state.cve_index_store(store)
        }
        None => state,
    };
    tracing::info!(target = %built.requests.target(), "approval requests are kept");
    let state = state.requests(built.requests, config.request_ttl);
    tracing::info!(target = %built.schedules.target(), "scheduled deploys are kept");
    tracing::info!(target = %built.checks.target(), "check reports are kept");
    tracing::info!(target = %built.pins.target(), "the rollbacks' pins are kept");
    let state = state.part(crate::app::pins::Pins::new(built.pins));
    let state = state
        .schedules(built.schedules, config.schedules.lapse)
        .checks(built.checks)
        .part(config.insights);
    let state = match super::evidence_signing::build(config, built.evidence, served)? {
        Some(signing) => state.evidence(signing),
        None => state,
    };
    let deliverer = background::webhooks(&config.webhooks, built.outbox, metrics);
    let state = match &deliverer {
        Some(deliverer) => state.events(deliverer.events.clone()),
        None => state,
    };
    Ok((state.build(), upstream, deliverer))
}

/// How long each exchange with the OIDC provider may take (discovery, keys, tokens).
const PROVIDER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Signing in with the configured provider: its discovery document and keys read now (a
/// failure names the key to look at), sessions kept in `sessions`.
async fn sign_in(
    oidc: &crate::wiring::sections::oidc::OidcIdentity,
    sessions: Arc<dyn crate::ports::session_store::SessionStore>,
    clock: Arc<dyn crate::ports::Clock>,
    metrics: Arc<dyn EventMetrics>,
) -> Result<crate::app::sign_in::SignIn, String> {
    let provider = crate::adapters::identity::oidc::provider::OidcProvider::discover(
        &oidc.provider,
        PROVIDER_TIMEOUT,
    )
    .await
    .map_err(|e| format!("configuration key {e}"))?;
    Ok(crate::app::sign_in::SignIn {
        provider: Arc::new(provider),
        store: sessions,
        lifetimes: oidc.lifetimes,
        matching: oidc.matching,
        clock,
        metrics,
        cookies: oidc.cookies,
        after_sign_out: oidc.after_sign_out.clone(),
    })
}

/// The upstream, as the two ports it serves.
type Ports = (
    Arc<dyn RepositoryManager>,
    Arc<dyn ContentCatalog>,
    Arc<dyn crate::ports::served_metadata::ServedMetadata>,
    Upstream,
);

fn upstream(config: &Config, metrics: Arc<dyn EventMetrics>) -> Result<Ports, SetupError> {
    if config.uses_demo() {
        let options = MemoryOptions {
            task_delay: config.demo_task_delay,
            task_timeout: config.pulp_settings().task_timeout,
            ..MemoryOptions::default()
        };
        let demo = Arc::new(demo_pulp(options, chrono::Utc::now()));
        return Ok((demo.clone(), demo.clone(), demo, Upstream::Demo));
    }
    let settings = config.pulp_settings();
    let upstream = Upstream::Pulp {
        base_url: settings.base_url.clone(),
        from_cli: config.pulp_from_cli.clone(),
    };
    let content_url = match config.evidence.content_url.as_str() {
        "" => format!("{}/pulp/content/", settings.base_url.trim_end_matches('/')),
        url => url.to_owned(),
    };
    let served = Arc::new(crate::adapters::pulp::PulpContent::new(
        &settings,
        &content_url,
    )?);
    let client = Arc::new(PulpClient::new(settings)?.measured_by(metrics));
    Ok((client.clone(), client, served, upstream))
}

/// The configured environments. Without `[environments]`: production alone, named by
/// `[production]`, or on the demo upstream the demo's own path (testing, staging,
/// production), so that `cargo run` shows environments.
pub(crate) fn environments(config: &Config) -> EnvironmentPath {
    let demo = config.uses_demo();
    if let Some(path) = demo_path(&config.environments, &config.production, demo) {
        return path;
    }
    if !config.environments.is_single() || !config.production.is_empty() {
        return config.environments.clone();
    }
    EnvironmentPath::production_only(production(config))
}

/// The configured `[production]`; on the demo upstream, the demo's own mapping under it
/// (configured entries win). A real Pulp gets only what the operator configured.
pub(crate) fn production(config: &Config) -> HashMap<String, String> {
    let mut production = if config.uses_demo() {
        demo::production()
    } else {
        HashMap::new()
    };
    production.extend(config.production.clone());
    production
}

/// Serves the console until Ctrl-C or SIGTERM.
pub async fn run(mut config: Config) -> Result<(), String> {
    let fresh_demo = super::demo_state::place(&mut config)?;
    if let Some(dir) = &fresh_demo {
        tracing::info!(
            dir = %dir.display(),
            "the demo's audit, approval requests and outbox are kept in a fresh directory \
             (the demo starts afresh at every start; set audit.path to keep them elsewhere)"
        );
    }
    super::first_run::warn_when_open(&config);
    let (state, upstream, deliverer) = build_state(&config).await?;
    // The demo's story (history, a request, a schedule, a check) on a fresh demo only, and
    // without webhooks, whose receivers would be told of it as of real deploys.
    if fresh_demo.is_some() && deliverer.is_none() {
        match super::demo_story::tell(&state).await {
            Ok(()) => tracing::info!("the demo's story is told: history with a rollback, a pending request, a schedule, a check"),
            Err(error) => tracing::warn!(%error, "the demo's story could not be told in full"),
        }
    }
    if config.uses_demo() {
        super::demo_edges::start(&state).await;
    }
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {} (server.listen): {e}", config.listen))?;
    match upstream {
        Upstream::Demo => tracing::info!("no Pulp configured: serving the built-in demo upstream"),
        Upstream::Pulp {
            base_url,
            from_cli: None,
        } => tracing::info!(%base_url, "using Pulp"),
        Upstream::Pulp {
            base_url,
            from_cli: Some(path),
        } => {
            tracing::info!(%base_url, config = %path.display(), "using the Pulp named in pulp-cli's configuration")
        }
    }
    // Diffs ahead, webhook deliveries and drift checks run until the console is told to stop.
    let retention = config.webhooks.retention;
    let mut background = Background::start(
        &state,
        deliverer,
        config.drift_interval,
        retention,
        config.request_retention,
        config.check_retention,
        config.schedules,
    );
    background.check_audit_chain(&state, config.audit.verify_interval);
    let stop = background.stopper();
    let signal = async move {
        web::shutdown_signal().await;
        stop();
    };
    let served = web::serve_with(listener, state, signal, config.edge.clone())
        .await
        .map_err(|e| format!("cannot serve: {e}"));
    background.stop().await;
    served
}
