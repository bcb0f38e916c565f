//! The figures of what a viewer asked for: the filter checked (a repository by name or
//! UUID, a configured release, an environment of the path, 1 to 3650 days or a range from
//! before to), the audit folded up to now, then the ledger read with the check reports made
//! in the range (one read of the check store).

use chrono::{DateTime, Duration, NaiveDate, Utc};

use crate::app::insights::error::InsightsError;
use crate::app::insights::folding::catch_up;
use crate::app::state::AppState;
use crate::domain::insights::{Figures, Scope};
use crate::domain::repository::RepoId;
use crate::ports::UpstreamError;

/// The longest range a view covers, in days (ten years).
pub const MAX_DAYS: u32 = 3650;

/// The days a view covers when none are asked.
pub const DEFAULT_DAYS: u32 = 30;

/// What a viewer asked, as sent (each optional; `days` or `from` and `to`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asked {
    pub repository: Option<String>,
    pub release: Option<String>,
    pub environment: Option<String>,
    pub days: Option<String>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// The figures of a view, with the scope they cover and the repository named.
#[derive(Debug, Clone, PartialEq)]
pub struct InsightsView {
    pub scope: Scope,
    /// The repository filtered on, as Pulp names it.
    pub repository: Option<(RepoId, String)>,
    pub figures: Figures,
}

/// The figures of `asked`, the audit folded up to now first.
pub async fn figures(state: &AppState, asked: &Asked) -> Result<InsightsView, InsightsError> {
    let now = state.clock.now().await;
    let (from, to) = range(asked, now)?;
    let environment = match asked.environment.as_deref().filter(|e| !e.is_empty()) {
        Some(name) => Some(
            state
                .environments
                .find(name)
                .map(|e| e.name.clone())
                .ok_or_else(|| InsightsError::UnknownEnvironment(name.to_owned()))?,
        ),
        None => None,
    };
    let release = match asked.release.as_deref().filter(|r| !r.is_empty()) {
        Some(name) => Some(
            state
                .releases
                .get(name)
                .map(|r| r.name.clone())
                .ok_or_else(|| InsightsError::UnknownRelease(name.to_owned()))?,
        ),
        None => None,
    };
    let repository = match asked.repository.as_deref().filter(|r| !r.is_empty()) {
        Some(text) => Some(repository(state, text).await?),
        None => None,
    };
    let scope = Scope {
        from,
        to,
        repositories: repository
            .as_ref()
            .map(|(id, _)| vec![id.as_str().to_owned()]),
        release,
        environment,
    };
    let checks = match &state.checks {
        Some(store) => store
            .reported_between(scope.from, scope.to)
            .await
            .map_err(|e| InsightsError::Store(e.to_string()))?,
        None => Vec::new(),
    };
    let folded = catch_up(state).await?;
    let figures = Figures::of(
        &folded.ledger,
        &checks,
        &scope,
        state.insights_settings().rollback_window,
        &state.environments,
    );
    Ok(InsightsView {
        scope,
        repository,
        figures,
    })
}

/// The repository named or numbered `text`, as Pulp has it (one upstream call).
async fn repository(state: &AppState, text: &str) -> Result<(RepoId, String), InsightsError> {
    let unknown = || InsightsError::UnknownRepository(text.to_owned());
    let found = match RepoId::parse(text) {
        Ok(id) => match state.reads.get_repo(&id).await {
            Ok(repo) => Some(repo),
            Err(UpstreamError::Http { status: 404, .. }) => None,
            Err(e) => return Err(InsightsError::Upstream(e)),
        },
        Err(_) => state
            .reads
            .repo_named(text)
            .await
            .map_err(InsightsError::Upstream)?,
    };
    let repo = found.ok_or_else(unknown)?;
    Ok((repo.id.clone(), repo.display_name().to_owned()))
}

/// The range asked: `from` and `to` (dates or RFC 3339 times; `to` a date means the end of
/// that day), or the last `days` days (30 when nothing is asked).
fn range(
    asked: &Asked,
    now: DateTime<Utc>,
) -> Result<(DateTime<Utc>, DateTime<Utc>), InsightsError> {
    let bad = |why: String| InsightsError::BadFilter(why);
    let from = asked.from.as_deref().filter(|t| !t.is_empty());
    let to = asked.to.as_deref().filter(|t| !t.is_empty());
    let days = asked.days.as_deref().filter(|t| !t.is_empty());
    match (from, to, days) {
        (None, None, days) => {
            let days = match days {
                None => DEFAULT_DAYS,
                Some(text) => text
                    .parse::<u32>()
                    .ok()
                    .filter(|d| (1..=MAX_DAYS).contains(d))
                    .ok_or_else(|| {
                        bad(format!(
                            "days '{text}' is not a whole number of days from 1 to {MAX_DAYS}"
                        ))
                    })?,
            };
            Ok((now - Duration::days(i64::from(days)), now))
        }
        (Some(_), Some(_), Some(_)) | (Some(_), None, Some(_)) | (None, Some(_), Some(_)) => {
            Err(bad("ask either days or from and to, not both".into()))
        }
        (Some(from), Some(to), None) => {
            let from = instant(from, false).ok_or_else(|| {
                bad(format!(
                    "from '{from}' is not a date (2026-11-01) or an RFC 3339 time"
                ))
            })?;
            let to = instant(to, true).ok_or_else(|| {
                bad(format!(
                    "to '{to}' is not a date (2026-11-30) or an RFC 3339 time"
                ))
            })?;
            if from >= to {
                return Err(bad("from must come before to".into()));
            }
            if to - from > Duration::days(i64::from(MAX_DAYS)) {
                return Err(bad(format!("a range covers at most {MAX_DAYS} days")));
            }
            Ok((from, to))
        }
        (Some(_), None, None) | (None, Some(_), None) => {
            Err(bad("a range needs both from and to".into()))
        }
    }
}

/// A date (its start, or the start of the next day when `end`) or an RFC 3339 time.
fn instant(text: &str, end: bool) -> Option<DateTime<Utc>> {
    if let Ok(day) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        let day = if end { day.succ_opt()? } else { day };
        return Some(day.and_hms_opt(0, 0, 0)?.and_utc());
    }
    DateTime::parse_from_rfc3339(text)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}
