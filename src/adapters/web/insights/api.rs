//! `GET /api/v1/insights`: the figures of the page as JSON
//! (`{"environments": [{"environment", "deploys", "lead_time_seconds": {"median", "p90"},
//! "change_failure_rate", "time_to_restore_seconds", "approval_wait_seconds",
//! "check_pass_rate", "soak_seconds", "weeks": [...]}]}`), or as CSV (one row per
//! environment) with `format=csv` or `Accept: text/csv`.

use axum::extract::{Query, State};
use axum::http::header::{ACCEPT, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::app::insights::{figures, Asked};
use crate::app::AppState;
use crate::domain::insights::{EnvironmentFigures, Figures, Spread};

use super::super::api::error::{ApiError, ErrorBody};

/// What the figures cover: a repository, a release, an environment, and `days` (1 to 3650,
/// 30 when absent) or `from` and `to` (dates or RFC 3339 times).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct InsightsQuery {
    /// A repository's name or UUID.
    repository: Option<String>,
    /// A configured release's name: the deploys its promotions made.
    release: Option<String>,
    environment: Option<String>,
    days: Option<String>,
    from: Option<String>,
    to: Option<String>,
    /// `json` (the default) or `csv`.
    format: Option<String>,
}

impl InsightsQuery {
    pub fn repository(&self) -> Option<&str> {
        self.repository.as_deref().filter(|t| !t.is_empty())
    }
    pub fn release(&self) -> Option<&str> {
        self.release.as_deref().filter(|t| !t.is_empty())
    }
    pub fn environment(&self) -> Option<&str> {
        self.environment.as_deref().filter(|t| !t.is_empty())
    }
    pub fn days(&self) -> Option<&str> {
        self.days.as_deref().filter(|t| !t.is_empty())
    }
    pub fn from(&self) -> Option<&str> {
        self.from.as_deref().filter(|t| !t.is_empty())
    }
    pub fn to(&self) -> Option<&str> {
        self.to.as_deref().filter(|t| !t.is_empty())
    }

    /// The filters asked, as a query string (without `format`).
    pub fn to_query_string(&self) -> String {
        let pairs = [
            ("repository", self.repository()),
            ("release", self.release()),
            ("environment", self.environment()),
            ("days", self.days()),
            ("from", self.from()),
            ("to", self.to()),
        ];
        pairs
            .iter()
            .filter_map(|(key, value)| {
                value.map(|v| format!("{key}={}", urlencoding_light(v)))
            })
            .collect::<Vec<_>>()
            .join("&")
    }

    pub(super) fn asked(&self) -> Asked {
        Asked {
            repository: self.repository.clone(),
            release: self.release.clone(),
            environment: self.environment.clone(),
            days: self.days.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
        }
    }
}

/// `text` percent-encoded for a query (everything but unreserved characters).
fn urlencoding_light(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A median and a 90th percentile, in seconds (nearest-rank; null when nothing was measured).
#[derive(Debug, Serialize, ToSchema)]
pub struct SpreadItem {
    pub median: Option<i64>,
    pub p90: Option<i64>,
}

/// One week (Monday, UTC) of one environment.
#[derive(Debug, Serialize, ToSchema)]
pub struct WeekItem {
    /// The week's Monday, `YYYY-MM-DD`.
    pub week: String,
    pub deploys: u64,
    pub rollbacks: u64,
    pub lead_time_median_seconds: Option<i64>,
}

/// One environment's figures.
#[derive(Debug, Serialize, ToSchema)]
pub struct EnvironmentItem {
    pub environment: String,
    /// Deploys that arrived (rollbacks are not counted).
    pub deploys: u64,
    /// From the version's creation in Pulp to its `deployed` line.
    pub lead_time_seconds: SpreadItem,
    /// Deploys a rollback undid within the window, over deploys (null: no deploy).
    pub change_failure_rate: Option<f64>,
    /// From the undone deploy to its rollback.
    pub time_to_restore_seconds: SpreadItem,
    /// From an approval request to the approval that completed it.
    pub approval_wait_seconds: SpreadItem,
    /// Passed over reported, of the latest report of each check (null: none).
    pub check_pass_rate: Option<f64>,
    /// From the version's arrival in the environment before to its arrival here.
    pub soak_seconds: SpreadItem,
    /// Every week of the range, oldest first.
    pub weeks: Vec<WeekItem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InsightsBody {
    /// In the path's order.
    pub environments: Vec<EnvironmentItem>,
}

fn spread(s: &Spread) -> SpreadItem {
    SpreadItem {
        median: s.median,
        p90: s.p90,
    }
}

fn item(e: &EnvironmentFigures) -> EnvironmentItem {
    EnvironmentItem {
        environment: e.environment.to_string(),
        deploys: e.deploys,
        lead_time_seconds: spread(&e.lead_time_seconds),
        change_failure_rate: e.change_failure_rate,
        time_to_restore_seconds: spread(&e.time_to_restore_seconds),
        approval_wait_seconds: spread(&e.approval_wait_seconds),
        check_pass_rate: e.check_pass_rate,
        soak_seconds: spread(&e.soak_seconds),
        weeks: e
            .weeks
            .iter()
            .map(|w| WeekItem {
                week: w.week.format("%Y-%m-%d").to_string(),
                deploys: w.deploys,
                rollbacks: w.rollbacks,
                lead_time_median_seconds: w.lead_time_median_seconds,
            })
            .collect(),
    }
}

/// The JSON body of `figures`.
pub fn body(figures: &Figures) -> InsightsBody {
    InsightsBody {
        environments: figures.environments.iter().map(item).collect(),
    }
}

/// The CSV header; one row per environment follows.
const CSV_HEADER: [&str; 15] = [
    "environment",
    "deploys",
    "rollbacks",
    "failed_deploys",
    "change_failure_rate",
    "lead_time_median_seconds",
    "lead_time_p90_seconds",
    "time_to_restore_median_seconds",
    "time_to_restore_p90_seconds",
    "approval_wait_median_seconds",
    "approval_wait_p90_seconds",
    "check_pass_rate",
    "checks_reported",
    "soak_median_seconds",
    "soak_p90_seconds",
];

/// The figures as CSV: a header, then one row per environment (an empty cell: not measured).
pub fn csv(figures: &Figures) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    let rate = |v: Option<f64>| v.map(|v| format!("{v:.4}")).unwrap_or_default();
    let _ = out.write_record(CSV_HEADER);
    for e in &figures.environments {
        let _ = out.write_record([
            e.environment.to_string(),
            e.deploys.to_string(),
            e.rollbacks.to_string(),
            e.failed_deploys.to_string(),
            rate(e.change_failure_rate),
            opt(e.lead_time_seconds.median),
            opt(e.lead_time_seconds.p90),
            opt(e.time_to_restore_seconds.median),
            opt(e.time_to_restore_seconds.p90),
            opt(e.approval_wait_seconds.median),
            opt(e.approval_wait_seconds.p90),
            rate(e.check_pass_rate),
            e.checks_reported.to_string(),
            opt(e.soak_seconds.median),
            opt(e.soak_seconds.p90),
        ]);
    }
    String::from_utf8(out.into_inner().unwrap_or_default()).unwrap_or_default()
}

/// Whether the asker wants CSV: `format=csv`, or an `Accept` naming `text/csv` (and not
/// JSON first).
fn wants_csv(query: &InsightsQuery, headers: &HeaderMap) -> bool {
    match query.format.as_deref() {
        Some(format) => format.eq_ignore_ascii_case("csv"),
        None => headers
            .get_all(ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|v| v.contains("text/csv")),
    }
}

/// Delivery insights per environment: deploys, lead time, change failure rate, time to
/// restore, approval wait, check pass rate, soak, and every week of the range.
#[utoipa::path(get, path = "/api/v1/insights", operation_id = "getInsights", tag = "insights",
    params(InsightsQuery),
    responses(
        (status = 200, body = InsightsBody, description = "The figures (or CSV with format=csv or Accept: text/csv)"),
        (status = 400, body = ErrorBody, description = "A filter naming no release or environment, or a range that is not one (bad_filter)"),
        (status = 404, body = ErrorBody, description = "No such repository"),
        (status = 503, body = ErrorBody)))]
pub async fn insights(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<InsightsQuery>,
) -> Result<Response, ApiError> {
    if let Some(format) = query.format.as_deref() {
        if !format.eq_ignore_ascii_case("csv") && !format.eq_ignore_ascii_case("json") {
            return Err(crate::app::insights::InsightsError::BadFilter(format!(
                "format '{format}' is neither json nor csv"
            ))
            .into());
        }
    }
    let view = figures(&state, &query.asked()).await?;
    if wants_csv(&query, &headers) {
        let headers = [
            (CONTENT_TYPE, "text/csv; charset=utf-8"),
            (CONTENT_DISPOSITION, "attachment; filename=\"insights.csv\""),
        ];
        return Ok((headers, csv(&view.figures)).into_response());
    }
    Ok(Json(body(&view.figures)).into_response())
}
