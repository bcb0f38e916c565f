//! Soak time: a version may go to an environment only when the environment before it on the
//! path serves that version now and has served it, without a break, for at least the soak
//! time (`[policy.<env>] soak = "24h"`). Since when it serves it is the newest change of that
//! environment the audit records, when that change set what it serves now; otherwise (a
//! change made outside the console) the time upstream last updated its distribution; when
//! neither is known, the soak cannot be proven and the deploy waits. Rollbacks are exempt
//! (the caller does not ask). A pure decision over what the deploy's facts read.

use std::fmt;

use chrono::{DateTime, SecondsFormat, TimeDelta, Utc};

use crate::domain::deploy::{AuditOutcome, DeployRecord, PreviousServing, ProductionChanged};
use crate::domain::environment::EnvironmentName;
use crate::domain::policy::duration::{parse_duration, BadDuration, DAYS, HOURS, MINUTES, SECONDS};
use crate::domain::repository::VersionNumber;

/// The longest soak accepted: 366 days.
const MAX_SOAK: TimeDelta = TimeDelta::days(366);

/// How long the previous environment must have served a version: whole seconds, more than
/// zero, at most 366 days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct SoakTime(TimeDelta);

/// Why a text is not a soak time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("soak '{text}' {reason}: write e.g. 24h, 90s, 1h30m or 2d")]
pub struct InvalidSoak {
    pub text: String,
    pub reason: String,
}

impl SoakTime {
    /// Parses `<n>d<n>h<n>m<n>s`, each part optional but in that order (the freeze's
    /// durations, plus seconds), e.g. `24h`, `90s`, `1h30m`.
    pub fn parse(text: &str) -> Result<Self, InvalidSoak> {
        let invalid = |reason: &str| InvalidSoak {
            text: text.to_owned(),
            reason: reason.to_owned(),
        };
        let units = [DAYS, HOURS, MINUTES, SECONDS];
        match parse_duration(text, &units, MAX_SOAK) {
            Ok(total) => Ok(Self(total)),
            Err(BadDuration::Empty) => Err(invalid("is empty")),
            Err(BadDuration::TooLong) => Err(invalid("is longer than 366 days")),
            Err(BadDuration::NotInUnits) => Err(invalid(
                "is not whole days (d), hours (h), minutes (m) and seconds (s), in that order",
            )),
            Err(BadDuration::Zero) => Err(invalid("is zero: leave soak out for none")),
        }
    }

    pub fn as_delta(&self) -> TimeDelta {
        self.0
    }
}

impl fmt::Display for SoakTime {
    /// The largest units that say it exactly: `24h`, `1h30m`, `90s` reads `1m30s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.0.num_seconds();
        let parts = [
            (total / 86_400, 'd'),
            (total % 86_400 / 3_600, 'h'),
            (total % 3_600 / 60, 'm'),
            (total % 60, 's'),
        ];
        for (n, unit) in parts.into_iter().filter(|(n, _)| *n > 0) {
            write!(f, "{n}{unit}")?;
        }
        Ok(())
    }
}

/// Since when `environment` serves `serving`: the newest audit line that changed it (a
/// deploy done, or a failed one that did change it), when it set `serving`; else, a change
/// made outside the console, `last_updated` (upstream's time of the distribution's last
/// write). `None` when it serves nothing or neither says.
pub fn served_since(
    records: &[DeployRecord],
    environment: &EnvironmentName,
    serving: Option<VersionNumber>,
    last_updated: Option<DateTime<Utc>>,
) -> Option<DateTime<Utc>> {
    let serving = serving?;
    let newest = records
        .iter()
        .filter(|r| &r.environment == environment && changed_it(r))
        .max_by_key(|r| r.timestamp);
    match newest {
        Some(record) if record.target_version == serving.get() => Some(record.timestamp),
        // Changed since the console's last change of it: outside, and upstream says when.
        _ => last_updated.filter(|t| newest.is_none_or(|r| *t >= r.timestamp)),
    }
}

fn changed_it(record: &DeployRecord) -> bool {
    match &record.outcome {
        AuditOutcome::Deployed => true,
        AuditOutcome::Failed {
            production_changed, ..
        } => *production_changed == ProductionChanged::Yes,
        AuditOutcome::Started => false,
    }
}

/// Why a version may not go yet: it has not soaked in the previous environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Soaking {
    pub previous: EnvironmentName,
    pub version: VersionNumber,
    pub soak: SoakTime,
    /// When it will have soaked, if the previous environment keeps serving it; `None` when
    /// the previous environment does not serve it now (or since when is unknown).
    pub until: Option<DateTime<Utc>>,
    /// Why `until` is unknown, in words (empty when it is known).
    pub why: String,
}

impl Soaking {
    /// `until` as RFC 3339 (seconds), for pages and messages.
    pub fn until_text(&self) -> Option<String> {
        self.until
            .map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true))
    }
}

/// Whether `version` has soaked `soak` in `previous` at `now`.
pub fn check_soak(
    soak: SoakTime,
    previous: &PreviousServing,
    version: VersionNumber,
    now: DateTime<Utc>,
) -> Result<(), Soaking> {
    let soaking = |until: Option<DateTime<Utc>>, why: String| Soaking {
        previous: previous.environment.clone(),
        version,
        soak,
        until,
        why,
    };
    if previous.serving != Some(version) {
        let serves = previous
            .serving
            .map_or_else(|| "nothing".to_owned(), VersionNumber::label);
        return Err(soaking(
            None,
            format!(
                "{} serves {serves}, not {}",
                previous.environment,
                version.label()
            ),
        ));
    }
    let Some(since) = previous.since else {
        return Err(soaking(
            None,
            format!(
                "neither the audit nor Pulp tells since when {} serves {}",
                previous.environment,
                version.label()
            ),
        ));
    };
    let until = since + soak.as_delta();
    if now >= until {
        return Ok(());
    }
    Err(soaking(Some(until), String::new()))
}

#[cfg(test)]
#[path = "soak_tests.rs"]
mod tests;
