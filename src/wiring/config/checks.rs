//! Validation of the merged configuration: every value is checked before the console
//! starts, and each refusal names its key and says what would be accepted.

use std::path::PathBuf;
use std::time::Duration;

use crate::domain::environment::EnvironmentPath;
use crate::domain::policy::Policy;

use crate::wiring::config::raw::{RawConfig, RawPulp};
use crate::wiring::config::settings::{AuditSettings, Config, DiffSettings, AUDIT_SINKS};
use crate::wiring::sections::error::{invalid, ConfigError};

/// The longest timeout accepted: one day (longer is a mistake, and would overflow deadlines).
const MAX_TIMEOUT_SECS: u64 = 86_400;

/// Checks every value and builds the [`Config`].
pub(crate) fn validate(
    raw: RawConfig,
    pulp_from_cli: Option<PathBuf>,
) -> Result<Config, ConfigError> {
    let listen = raw.server.listen.parse().map_err(|_| {
        let reason = format!(
            "'{}' is not an address such as 127.0.0.1:8080",
            raw.server.listen
        );
        invalid("server.listen", reason)
    })?;
    let sinks = AUDIT_SINKS;
    if !sinks.contains(&raw.audit.sink.as_str()) {
        let reason = format!("'{}' is not one of: {}", raw.audit.sink, sinks.join(", "));
        return Err(invalid("audit.sink", reason));
    }
    if raw.audit.sink == "postgres" {
        check_database_url(&raw.audit.url)?;
    }
    let audit = AuditSettings {
        sink: raw.audit.sink,
        path: raw.audit.path,
        url: raw.audit.url,
        password_file: raw.audit.password_file,
        verify_interval: verify_interval(raw.audit.verify_interval_secs)?,
    };
    let diffs = DiffSettings {
        dir: if raw.diffs.dir.as_os_str().is_empty() {
            let beside = audit.path.parent().unwrap_or(std::path::Path::new(""));
            beside.join("diffs")
        } else {
            raw.diffs.dir
        },
        max_bytes: raw.diffs.max_disk_mb.saturating_mul(1 << 20),
        compute_ahead: raw.diffs.compute_ahead,
    };
    at_least_one("dashboard.page_size", raw.dashboard.page_size)?;
    check_pulp(&raw.pulp)?;
    let grace = Duration::from_secs(raw.pulp.task_timeout_secs * 2 + 10);
    let edge = crate::wiring::sections::server_edge::edge_settings(&raw.server, grace)?;
    let matching =
        crate::domain::identity::CaseMatching::from_case_sensitive(raw.identity.case_sensitive);
    let identity = crate::wiring::sections::identity::validate(raw.identity, raw.oidc)?;
    let writes_per_minute = per_minute("api.writes_per_minute", raw.api.writes_per_minute)?;
    let anonymous_exposure_per_minute = per_minute(
        "api.anonymous_exposure_per_minute",
        raw.api.anonymous_exposure_per_minute,
    )?;
    let api_tokens = crate::wiring::sections::api::validate(raw.api, matching)?;
    let policy_facts = crate::wiring::sections::policy_digest::policy_in_force(
        &raw.policy.written,
        &raw.environments.written,
    );
    let environments =
        crate::wiring::sections::environments::validate(raw.environments, raw.production.clone())?;
    // The policy names the environments of the path the console uses: on the demo upstream
    // without a configured path, the demo's own.
    let demo = raw.pulp.base_url.is_empty();
    let in_use =
        crate::wiring::sections::environments::demo_path(&environments, &raw.production, demo)
            .unwrap_or_else(|| environments.clone());
    // On the demo's own environments, the demo's policy and release unless configured
    // (approvals need the requests kept beside a jsonl audit).
    let demo_own = demo && in_use != environments;
    let mut raw_policy = raw.policy;
    if demo_own && raw_policy.environments.is_empty() && audit.sink == "jsonl" {
        raw_policy.environments = crate::wiring::config::demo_tables::policy();
    }
    let mut raw_releases = raw.releases;
    if demo_own && raw_releases.is_empty() {
        raw_releases = crate::wiring::config::demo_tables::releases();
    }
    let policy = crate::wiring::sections::policy::validate(raw_policy, &in_use, matching)?;
    let metadata = crate::wiring::sections::verification::validate(raw.verification, &in_use)?;
    let releases = crate::wiring::sections::releases::validate(raw_releases)?;
    check_requests_kept(&audit, &policy.policy, &in_use)?;
    let token_names: Vec<_> = api_tokens
        .iter()
        .map(|t| t.operator.name().clone())
        .collect();
    crate::wiring::sections::policy::tokens_apart(&policy.policy, &token_names)?;
    let webhooks = crate::wiring::sections::webhooks::validate(raw.webhooks, raw.webhook_delivery)?;
    let drift_interval = crate::wiring::sections::webhooks::drift_interval(raw.drift)?;
    let schedules = crate::wiring::sections::schedules::validate(raw.schedules)?;
    let insights = crate::wiring::sections::insights::validate(raw.insights)?;
    let evidence = crate::wiring::sections::evidence::validate(raw.evidence)?;
    let edge_pulps =
        crate::wiring::sections::edges::validate(raw.edges, raw.edge_replication, &in_use)?;
    Ok(Config {
        listen,
        audit,
        evidence,
        diffs,
        identity,
        api_tokens,
        writes_per_minute,
        anonymous_exposure_per_minute,
        log_format: raw.log.format,
        page_size: raw.dashboard.page_size,
        production: raw.production,
        environments,
        policy: policy.policy.with_metadata(metadata),
        policy_facts,
        releases,
        request_ttl: policy.request_ttl,
        request_retention: policy.request_retention,
        check_retention: policy.check_retention,
        webhooks,
        drift_interval,
        schedules,
        insights,
        edge_pulps,
        demo_task_delay: Duration::from_millis(raw.demo.task_delay_ms),
        edge,
        pulp: raw.pulp,
        pulp_from_cli,
        audit_path_set: false,
    })
}

/// Approval requests are kept where the audit is: refused when they could not be (standard
/// output keeps them in memory, lost at a restart), or when the `jsonl` sink's audit file is
/// the requests file itself.
fn check_requests_kept(
    audit: &AuditSettings,
    policy: &Policy,
    path: &EnvironmentPath,
) -> Result<(), ConfigError> {
    let needing = path
        .iter()
        .find(|environment| policy.approvals_needed(&environment.name) > 0);
    if let (Some(environment), "stdout") = (needing, audit.sink.as_str()) {
        let reason = format!(
            "deploys to {} need approvals, but audit.sink is \"stdout\": the requests would be \
             kept in memory only and lost at a restart; use audit.sink = \"jsonl\" or \
             \"postgres\"",
            environment.name
        );
        return Err(invalid(
            format!("policy.{}.approvals", environment.name),
            reason,
        ));
    }
    let requests = audit.requests_path();
    if audit.sink == "jsonl" && audit.path.file_name() == requests.file_name() {
        let reason = format!(
            "{}: approval requests are kept in {} beside the audit file; name the audit file \
             otherwise, e.g. audit.jsonl",
            audit.path.display(),
            crate::wiring::config::settings::REQUESTS_FILE
        );
        return Err(invalid("audit.path", reason));
    }
    if audit.sink == "jsonl" && audit.path.file_name() == audit.checks_path().file_name() {
        let reason = format!(
            "{}: check reports are kept in {} beside the audit file; name the audit file \
             otherwise, e.g. audit.jsonl",
            audit.path.display(),
            crate::wiring::config::settings::CHECKS_FILE
        );
        return Err(invalid("audit.path", reason));
    }
    if audit.sink == "jsonl" && audit.path.file_name() == audit.pins_path().file_name() {
        let reason = format!(
            "{}: the rollbacks' pins are kept in {} beside the audit file; name the audit file \
             otherwise, e.g. audit.jsonl",
            audit.path.display(),
            crate::wiring::config::settings::PINS_FILE
        );
        return Err(invalid("audit.path", reason));
    }
    Ok(())
}

/// The `postgres` sink needs a `postgres://` URL.
fn check_database_url(text: &str) -> Result<(), ConfigError> {
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        return Ok(());
    }
    let reason = if text.is_empty() {
        "audit.sink is \"postgres\": name the database, e.g. postgres://console@db.example.com/repo_console".to_owned()
    } else {
        "the URL must start with postgres:// (e.g. postgres://console@db.example.com/repo_console)"
            .to_owned()
    };
    Err(invalid("audit.url", reason))
}

fn check_pulp(pulp: &RawPulp) -> Result<(), ConfigError> {
    check_base_url(&pulp.base_url)?;
    if !(pulp.api_root.starts_with('/') && pulp.api_root.ends_with('/')) {
        return Err(invalid(
            "pulp.api_root",
            format!(
                "'{}' must start and end with '/', e.g. /pulp/ (or /pulp/<domain>/ with domains)",
                pulp.api_root
            ),
        ));
    }
    timeout("pulp.connect_timeout_secs", pulp.connect_timeout_secs)?;
    timeout("pulp.request_timeout_secs", pulp.request_timeout_secs)?;
    timeout("pulp.task_timeout_secs", pulp.task_timeout_secs)?;
    at_least_one("pulp.page_size", pulp.page_size)
}

/// Empty (the demo upstream) or an http(s) URL naming a host, without credentials, query
/// or fragment.
fn check_base_url(text: &str) -> Result<(), ConfigError> {
    const KEY: &str = "pulp.base_url";
    if text.is_empty() {
        return Ok(());
    }
    let url = url::Url::parse(text).map_err(|e| {
        invalid(
            KEY,
            format!("'{text}' is not a URL ({e}); write e.g. https://pulp.example.com, or nothing for the demo"),
        )
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid(
            KEY,
            format!("'{text}' must start with http:// or https://"),
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(
            KEY,
            "the URL holds credentials: put them in pulp.username and pulp.password_file".into(),
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(invalid(KEY, format!("'{text}' names no host")));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid(
            KEY,
            format!("'{text}' must not have a query (?...) or a fragment (#...)"),
        ));
    }
    if !matches!(url.path(), "" | "/") {
        let mut server = url.clone();
        server.set_path("");
        return Err(invalid(
            KEY,
            format!(
                "'{text}' has a path ({}): write the server alone, e.g. {}; the path of \
                 Pulp's API is pulp.api_root (/pulp/ by default, the console adds api/v3/)",
                url.path(),
                server.as_str().trim_end_matches('/')
            ),
        ));
    }
    Ok(())
}

fn timeout(key: &'static str, secs: u64) -> Result<(), ConfigError> {
    if (1..=MAX_TIMEOUT_SECS).contains(&secs) {
        return Ok(());
    }
    Err(invalid(
        key,
        format!("{secs} seconds: must be between 1 and {MAX_TIMEOUT_SECS} (one day)"),
    ))
}

fn per_minute(key: &'static str, value: u64) -> Result<std::num::NonZeroU32, ConfigError> {
    u32::try_from(value)
        .ok()
        .and_then(std::num::NonZeroU32::new)
        .ok_or_else(|| {
            invalid(
                key,
                format!("{value}: must be a whole number from 1 to {}", u32::MAX),
            )
        })
}

fn at_least_one(key: &'static str, value: u64) -> Result<(), ConfigError> {
    if value >= 1 {
        return Ok(());
    }
    Err(invalid(key, format!("{value}: must be at least 1")))
}

/// The interval between two checks of the audit chain; zero: none.
fn verify_interval(secs: u64) -> Result<std::time::Duration, ConfigError> {
    if secs > 7 * 86_400 {
        let reason = format!("{secs}: at most 604800 (a week); 0 turns the checks off");
        return Err(invalid("audit.verify_interval_secs", reason));
    }
    Ok(std::time::Duration::from_secs(secs))
}
