//! The `[policy]` table, checked into the domain's [`Policy`]: subjects parse
//! (`user:<name>`, `group:<name>`), every environment named is one of the path's (the path
//! the console uses: the demo's own on the demo upstream), approvals go with approvers, and
//! requests live a positive number of hours. Without `[policy]`, every identified operator
//! may deploy anywhere and synchronize, and no deploy needs approvals.

use std::collections::{BTreeMap, BTreeSet};
use std::num::NonZeroU32;

use serde::de::{Deserializer, Error as _};
use serde::Deserialize;
use toml::{Table, Value};

use crate::domain::check::CheckName;
use crate::domain::environment::{EnvironmentName, EnvironmentPath};
use crate::domain::identity::{CaseMatching, Operator, PersonName};
use crate::domain::policy::checks::CheckPolicy;
use crate::domain::policy::{Allowed, Approvals, FreezeWindow, Policy, SoakTime, Subject};

use crate::wiring::sections::error::{invalid, ConfigError};
use crate::wiring::sections::table::typed;

/// The longest a request may wait for its approvals: a year (longer is a mistake).
const MAX_REQUEST_TTL_HOURS: i64 = 24 * 366;

/// The policy, and how long a request waits for its approvals.
#[derive(Debug)]
pub(crate) struct Validated {
    pub policy: Policy,
    pub request_ttl: chrono::Duration,
    pub request_retention: chrono::Duration,
    /// How long a superseded check report is kept (`policy.check_retention_days`).
    pub check_retention: chrono::Duration,
}

/// `raw` over `path`, its subjects' names compared with people's and groups' under
/// `matching` (`identity.case_sensitive`).
pub(crate) fn validate(
    raw: RawPolicy,
    path: &EnvironmentPath,
    matching: CaseMatching,
) -> Result<Validated, ConfigError> {
    let syncers = allowed("policy.syncers", raw.syncers, matching)?;
    let request_ttl = request_ttl(raw.request_ttl_hours)?;
    let request_retention = request_retention(raw.request_retention_days)?;
    let check_retention = check_retention(raw.check_retention_days)?;
    let mut deployers = BTreeMap::new();
    let mut freezes = BTreeMap::new();
    let mut approvals = BTreeMap::new();
    let mut overriders = BTreeMap::new();
    let mut soaks = BTreeMap::new();
    let mut required_checks = BTreeMap::new();
    let mut auto_promote = BTreeSet::new();
    for (name, policy) in raw.environments {
        let environment = on_path(path, &name)?;
        let key = |field: &str| format!("policy.{name}.{field}");
        let RawEnvironmentPolicy {
            deployers: deploying,
            freeze,
            approvers,
            approvals: needed,
            overriders: overriding,
            soak,
            required_checks: checks,
            auto_promote: promotes,
        } = policy;
        if let Some(text) = soak {
            soaks.insert(
                environment.clone(),
                soak_of(path, &environment, &key("soak"), &text)?,
            );
        }
        if let Some(checks) = required_of(path, &environment, &key("required_checks"), &checks)? {
            required_checks.insert(environment.clone(), checks);
        }
        if promotes {
            if !required_checks.contains_key(&environment) {
                let reason = format!(
                    "true, but policy.{name}.required_checks is empty: name the checks whose \
                     passing promotes a version here, e.g. required_checks = [\"smoke\"]"
                );
                return Err(invalid(key("auto_promote"), reason));
            }
            auto_promote.insert(environment.clone());
        }
        deployers.insert(
            environment.clone(),
            allowed(&key("deployers"), deploying, matching)?,
        );
        if !freeze.is_empty() {
            let windows = freeze
                .iter()
                .enumerate()
                .map(|(i, window)| freeze_window(&format!("policy.{name}.freeze[{i}]"), window))
                .collect::<Result<Vec<_>, _>>()?;
            freezes.insert(environment.clone(), windows);
        }
        if let Some(needed) = approvals_of(&name, needed, approvers, matching)? {
            approvals.insert(environment.clone(), needed);
        }
        if let Some(subjects) = overriding {
            overriders.insert(
                environment,
                subjects_of(&key("override"), &subjects, matching)?,
            );
        }
    }
    let automation = automation(&raw.automation, matching)?;
    let policy = Policy::new(deployers, syncers)
        .with_freezes(freezes)
        .with_approvals(approvals)
        .with_overriders(overriders)
        .with_soaks(soaks)
        .with_matching(matching);
    check_automation(&policy, automation.as_ref(), &auto_promote, matching)?;
    let policy = policy.with_checks(CheckPolicy::new(required_checks, auto_promote, automation));
    Ok(Validated {
        policy,
        request_ttl,
        request_retention,
        check_retention,
    })
}

/// `policy.<env>.required_checks`: check names, on an environment after the first (the
/// checks pass on the environment before it); `None` when empty.
fn required_of(
    path: &EnvironmentPath,
    environment: &EnvironmentName,
    key: &str,
    texts: &[String],
) -> Result<Option<Vec<CheckName>>, ConfigError> {
    if texts.is_empty() {
        return Ok(None);
    }
    if path.previous(environment).is_none() {
        let reason = format!(
            "{environment} is the first environment: no environment comes before it for the \
             checks to pass on. Require them on the environment after it instead"
        );
        return Err(invalid(key.to_owned(), reason));
    }
    let mut names = Vec::new();
    for text in texts {
        let name =
            CheckName::parse(text.trim()).map_err(|e| invalid(key.to_owned(), e.to_string()))?;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Ok(Some(names))
}

/// `policy.automation`: empty (nobody), or `user:<name>`.
fn automation(text: &str, matching: CaseMatching) -> Result<Option<PersonName>, ConfigError> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let refused = |reason: String| invalid("policy.automation", reason);
    match Subject::parse_with(text, matching).map_err(|e| refused(e.to_string()))? {
        Subject::User { name, .. } => Ok(Some(name)),
        Subject::Group(_) | Subject::Token { .. } => Err(refused(format!(
            "'{text}': automatic promotions act as one user, e.g. \"user:promotion-bot\", not \
             a group or an API token"
        ))),
    }
}

/// Refuses a `user:` subject naming an API token (`tokens`, their names): `user:` names
/// people only, so such an entry would give the token nothing and a person of that name
/// the token's place. The refusal names the fix, `token:<name>`.
pub(crate) fn tokens_apart(policy: &Policy, tokens: &[PersonName]) -> Result<(), ConfigError> {
    let matching = policy.matching();
    for (key, subject) in policy.subjects() {
        let Some(name) = subject.user_name() else {
            continue;
        };
        if let Some(token) = tokens
            .iter()
            .find(|t| t.key(matching) == name.key(matching))
        {
            let reason = format!(
                "'user:{name}' names the API token '{token}' ([[api.tokens]]): since this \
                 version user: names people only and token: names tokens, so that a person \
                 named like a token gets nothing of it. Write \"token:{token}\" instead"
            );
            return Err(invalid(key, reason));
        }
    }
    Ok(())
}

/// Automatic promotions need someone to act as, who may deploy to each environment that
/// promotes by itself (as a user: no group is known for it).
fn check_automation(
    policy: &Policy,
    automation: Option<&PersonName>,
    auto_promote: &BTreeSet<EnvironmentName>,
    matching: CaseMatching,
) -> Result<(), ConfigError> {
    let Some(first) = auto_promote.iter().next() else {
        return Ok(());
    };
    let Some(name) = automation else {
        let reason = format!(
            "empty, but policy.{first}.auto_promote is true: name the user automatic promotions \
             act as, e.g. automation = \"user:promotion-bot\" (listed in the environment's \
             deployers)"
        );
        return Err(invalid("policy.automation", reason));
    };
    let operator = Operator::with_matching(name.as_str(), matching)
        .map_err(|e| invalid("policy.automation", e.to_string()))?;
    for environment in auto_promote {
        if let Err(denied) = policy.may_deploy(environment, &operator) {
            let reason = format!(
                "user:{name} may not deploy to {environment}, which promotes by itself \
                 (policy.{environment}.auto_promote): {denied} List it in \
                 policy.{environment}.deployers"
            );
            return Err(invalid("policy.automation", reason));
        }
    }
    Ok(())
}

/// `policy.request_ttl_hours`: 1 hour to a year.
fn request_ttl(hours: i64) -> Result<chrono::Duration, ConfigError> {
    if (1..=MAX_REQUEST_TTL_HOURS).contains(&hours) {
        return Ok(chrono::Duration::hours(hours));
    }
    let reason = format!(
        "{hours}: a request waits a whole number of hours for its approvals, from 1 to \
         {MAX_REQUEST_TTL_HOURS} (a year)"
    );
    Err(invalid("policy.request_ttl_hours", reason))
}

/// `policy.request_retention_days`: 1 day to ten years.
fn request_retention(days: i64) -> Result<chrono::Duration, ConfigError> {
    if (1..=3650).contains(&days) {
        return Ok(chrono::Duration::days(days));
    }
    let reason = format!("{days}: closed requests are kept a whole number of days, from 1 to 3650");
    Err(invalid("policy.request_retention_days", reason))
}

/// `policy.check_retention_days`: 1 day to ten years.
fn check_retention(days: i64) -> Result<chrono::Duration, ConfigError> {
    if (1..=3650).contains(&days) {
        return Ok(chrono::Duration::days(days));
    }
    let reason =
        format!("{days}: superseded check reports are kept a whole number of days, from 1 to 3650");
    Err(invalid("policy.check_retention_days", reason))
}

/// `approvals` and `approvers` of `[policy.<name>]`: both or neither (0 approvals is none).
fn approvals_of(
    name: &str,
    needed: Option<i64>,
    approvers: Option<Vec<String>>,
    matching: CaseMatching,
) -> Result<Option<Approvals>, ConfigError> {
    let approvals_key = format!("policy.{name}.approvals");
    let approvers_key = format!("policy.{name}.approvers");
    let needed = match needed {
        None | Some(0) => None,
        Some(n) => Some(
            u32::try_from(n)
                .ok()
                .and_then(NonZeroU32::new)
                .ok_or_else(|| {
                    let reason =
                        format!("{n}: the number of approvals a deploy needs is 0 (none) or more");
                    invalid(approvals_key.clone(), reason)
                })?,
        ),
    };
    let subjects = approvers
        .map(|texts| subjects_of(&approvers_key, &texts, matching))
        .transpose()?;
    match (needed, subjects) {
        (None, None) => Ok(None),
        (None, Some(_)) => {
            let reason = format!(
                "approvers are listed but policy.{name}.approvals is 0 or absent, so no deploy \
                 would wait for them: set approvals = 1 (or more), or remove approvers"
            );
            Err(invalid(approvers_key, reason))
        }
        (Some(n), None) => {
            let reason = format!(
                "approvals = {n}, but nobody may give them: list who may in \
                 policy.{name}.approvers, e.g. approvers = [\"group:release\"]"
            );
            Err(invalid(approvals_key, reason))
        }
        (Some(n), Some(subjects)) if subjects.is_empty() => {
            let reason = format!(
                "an empty list, but policy.{name}.approvals = {n}: nobody could approve; list \
                 who may, e.g. [\"group:release\"]"
            );
            Err(invalid(approvers_key, reason))
        }
        (Some(n), Some(subjects)) => {
            let distinct: BTreeSet<&Subject> = subjects.iter().collect();
            let only_users = distinct.iter().all(|s| s.is_user());
            if only_users && distinct.len() < n.get() as usize {
                let reason = format!(
                    "{n}, but policy.{name}.approvers lists {} user(s) and no group: the \
                     deploys could never be approved",
                    distinct.len()
                );
                return Err(invalid(approvals_key, reason));
            }
            Ok(Approvals::new(n, subjects))
        }
    }
}

/// `soak` of `[policy.<environment>]`: a duration, on an environment that has one before it.
fn soak_of(
    path: &EnvironmentPath,
    environment: &EnvironmentName,
    key: &str,
    text: &str,
) -> Result<SoakTime, ConfigError> {
    if path.previous(environment).is_none() {
        let reason = format!(
            "{environment} is the first environment of the path: no environment before it \
             serves a version first, so nothing could ever soak; remove soak there"
        );
        return Err(invalid(key.to_owned(), reason));
    }
    SoakTime::parse(text).map_err(|e| invalid(key.to_owned(), e.to_string()))
}

/// The environment called `name`, which must be on the path.
fn on_path(path: &EnvironmentPath, name: &str) -> Result<EnvironmentName, ConfigError> {
    path.chosen(Some(name))
        .map(|environment| environment.name.clone())
        .map_err(|unknown| invalid(format!("policy.{name}"), unknown.to_string()))
}

/// One freeze window: "start/end" (RFC 3339), or { cron, duration, timezone }.
fn freeze_window(key: &str, value: &Value) -> Result<FreezeWindow, ConfigError> {
    let refused = |reason: String| invalid(key.to_owned(), reason);
    match value {
        Value::String(interval) => {
            FreezeWindow::interval(interval).map_err(|e| refused(e.to_string()))
        }
        Value::Table(table) => {
            if let Some(unknown) = table
                .keys()
                .find(|k| !["cron", "duration", "timezone"].contains(&k.as_str()))
            {
                return Err(refused(format!(
                    "unknown key '{unknown}': a recurring window has cron, duration and timezone"
                )));
            }
            let text = |field: &str| match table.get(field) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(refused(format!("{field} must be a string"))),
            };
            let cron = text("cron")?.ok_or_else(|| refused("cron is missing".to_owned()))?;
            let duration =
                text("duration")?.ok_or_else(|| refused("duration is missing".to_owned()))?;
            FreezeWindow::recurring(cron, duration, text("timezone")?)
                .map_err(|e| refused(e.to_string()))
        }
        _ => Err(refused(
            "a window is \"start/end\" (RFC 3339) or { cron = \"0 16 * * FRI\", duration = \"64h\", timezone = \"Europe/Berlin\" }"
                .to_owned(),
        )),
    }
}

fn allowed(
    key: &str,
    subjects: Option<Vec<String>>,
    matching: CaseMatching,
) -> Result<Allowed, ConfigError> {
    let Some(subjects) = subjects else {
        return Ok(Allowed::Everyone);
    };
    subjects_of(key, &subjects, matching).map(Allowed::Only)
}

/// Each text as a subject, or the refusal naming `key`.
fn subjects_of(
    key: &str,
    texts: &[String],
    matching: CaseMatching,
) -> Result<Vec<Subject>, ConfigError> {
    texts
        .iter()
        .map(|s| {
            Subject::parse_with(s, matching).map_err(|e| invalid(key.to_owned(), e.to_string()))
        })
        .collect()
}

#[cfg(test)]
#[path = "policy_checks_tests.rs"]
mod checks_tests;

/// The `[policy]` table: `syncers`, `request_ttl_hours`, `request_retention_days`, and one
/// table per environment.
/// Read by hand, like `[environments]`: every refusal names its whole key.
#[derive(Debug, Default)]
pub(crate) struct RawPolicy {
    /// Who may synchronize; `None`: every identified operator.
    pub syncers: Option<Vec<String>>,
    /// How long a request waits for its approvals, in hours (declared in
    /// `config/default.toml`, so also set from the environment and the command line).
    pub request_ttl_hours: i64,
    /// How long a closed request is kept, in days (declared in `config/default.toml`).
    pub request_retention_days: i64,
    /// How long a superseded check report is kept, in days (declared in
    /// `config/default.toml`).
    pub check_retention_days: i64,
    /// Who automatic promotions act as, `user:<name>`; empty: nobody (declared in
    /// `config/default.toml`).
    pub automation: String,
    /// Environment name -> its policy as written.
    pub environments: BTreeMap<String, RawEnvironmentPolicy>,
    /// The table as the layers wrote it, the defaults included (what the evidence's policy
    /// digest covers).
    pub written: Table,
}

/// `[policy.<environment>]` as written (checked in `policy.rs`).
#[derive(Debug, Default)]
pub(crate) struct RawEnvironmentPolicy {
    /// Who may deploy there (`None`: every identified operator).
    pub deployers: Option<Vec<String>>,
    /// Its freeze windows as written (a "start/end" string, or a table with cron, duration
    /// and timezone).
    pub freeze: Vec<Value>,
    /// Who may approve a request to deploy there.
    pub approvers: Option<Vec<String>>,
    /// How many approvals a deploy there needs (0 or `None`: none).
    pub approvals: Option<i64>,
    /// Who may deploy there during a freeze, before a version soaked, or without its required
    /// checks (`override`).
    pub overriders: Option<Vec<String>>,
    /// How long the environment before must have served a version (`soak`, e.g. "24h").
    pub soak: Option<String>,
    /// The checks a version needs passed on the previous environment to come here.
    pub required_checks: Vec<String>,
    /// Whether a version comes here by itself once its required checks passed.
    pub auto_promote: bool,
}

impl<'de> Deserialize<'de> for RawPolicy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let table = Table::deserialize(deserializer)?;
        Self::from_table(table).map_err(D::Error::custom)
    }
}

impl RawPolicy {
    fn from_table(table: Table) -> Result<Self, String> {
        let mut policy = Self {
            written: table.clone(),
            ..Self::default()
        };
        let mut ttl = None;
        let mut retention = None;
        let mut check_retention = None;
        let mut automation = None;
        for (key, value) in table {
            match key.as_str() {
                "syncers" => {
                    policy.syncers = Some(typed("policy.syncers", value)?);
                    continue;
                }
                "request_ttl_hours" => {
                    ttl = Some(typed("policy.request_ttl_hours", value)?);
                    continue;
                }
                "request_retention_days" => {
                    retention = Some(typed("policy.request_retention_days", value)?);
                    continue;
                }
                "check_retention_days" => {
                    check_retention = Some(typed("policy.check_retention_days", value)?);
                    continue;
                }
                "automation" => {
                    automation = Some(typed("policy.automation", value)?);
                    continue;
                }
                _ => {}
            }
            let Value::Table(environment) = value else {
                return Err(format!(
                    "unknown key policy.{key}: [policy] holds `syncers`, `request_ttl_hours`, \
                     `request_retention_days`, `check_retention_days`, `automation` and one table \
                     per environment, e.g. \
                     [policy.{key}]"
                ));
            };
            let environment = RawEnvironmentPolicy::from_table(&key, environment)?;
            policy.environments.insert(key, environment);
        }
        policy.request_ttl_hours = ttl.ok_or("policy.request_ttl_hours is missing")?;
        policy.request_retention_days =
            retention.ok_or("policy.request_retention_days is missing")?;
        policy.check_retention_days =
            check_retention.ok_or("policy.check_retention_days is missing")?;
        policy.automation = automation.ok_or("policy.automation is missing")?;
        Ok(policy)
    }
}

impl RawEnvironmentPolicy {
    fn from_table(name: &str, table: Table) -> Result<Self, String> {
        let mut policy = Self::default();
        for (field, value) in table {
            let dotted = format!("policy.{name}.{field}");
            match field.as_str() {
                "deployers" => policy.deployers = Some(typed(&dotted, value)?),
                "freeze" => policy.freeze = typed(&dotted, value)?,
                "approvers" => policy.approvers = Some(typed(&dotted, value)?),
                "approvals" => {
                    policy.approvals = Some(typed(&dotted, value).map_err(|e| {
                        format!("{e} (approvals is a whole number: 0 for none, 1 or more)")
                    })?)
                }
                "override" => policy.overriders = Some(typed(&dotted, value)?),
                "soak" => policy.soak = Some(typed(&dotted, value)?),
                "required_checks" => policy.required_checks = typed(&dotted, value)?,
                "auto_promote" => policy.auto_promote = typed(&dotted, value)?,
                _ => {
                    return Err(format!(
                        "unknown key {dotted}: an environment's policy has deployers, freeze, \
                         approvers, approvals, override, soak, required_checks and auto_promote"
                    ))
                }
            }
        }
        Ok(policy)
    }
}
