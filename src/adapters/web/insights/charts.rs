//! The insights' charts, drawn here as SVG (no script, no crate): bars for deploys per
//! week, a distribution of lead times, and a line of the weekly median lead time. Each is an
//! image named by its title, with its numbers in a table right below it for screen readers
//! and for copying; colours come from the console's CSS variables (classes `chart-*` in
//! `console.css`), so both themes read them.

use maud::{html, Markup};

use crate::domain::insights::{EnvironmentFigures, WeekFigures};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 180.0;
/// Room for the top value's label, as wide as a narrow screen's larger font needs.
const LEFT: f64 = 72.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// The lead-time bins of the distribution: upper bounds in seconds, and their labels.
pub const LEAD_BINS: [(i64, &str); 8] = [
    (3_600, "< 1 h"),
    (4 * 3_600, "1–4 h"),
    (24 * 3_600, "4–24 h"),
    (3 * 86_400, "1–3 d"),
    (7 * 86_400, "3–7 d"),
    (14 * 86_400, "7–14 d"),
    (30 * 86_400, "14–30 d"),
    (i64::MAX, "≥ 30 d"),
];

/// A duration in words: seconds, minutes, hours or days.
pub fn duration(seconds: Option<i64>) -> String {
    match seconds {
        None => "–".to_owned(),
        Some(s) if s < 120 => format!("{s} s"),
        Some(s) if s < 2 * 3_600 => format!("{} min", s / 60),
        Some(s) if s < 2 * 86_400 => format!("{:.1} h", s as f64 / 3_600.0),
        Some(s) => format!("{:.1} d", s as f64 / 86_400.0),
    }
}

/// A share in per cent.
pub fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "–".to_owned(), |r| format!("{:.1} %", r * 100.0))
}

/// How many lead times fall in each bin.
pub fn lead_bins(lead_times: &[i64]) -> Vec<(&'static str, u64)> {
    let mut counts = vec![0u64; LEAD_BINS.len()];
    for lead in lead_times {
        let bin = LEAD_BINS
            .iter()
            .position(|(bound, _)| lead < bound)
            .unwrap_or(LEAD_BINS.len() - 1);
        counts[bin] += 1;
    }
    LEAD_BINS
        .iter()
        .zip(counts)
        .map(|((_, label), count)| (*label, count))
        .collect()
}

/// The frame of a chart: its title (the image's name), the axis and the top value.
fn frame(id: &str, title: &str, top_label: &str, body: Markup) -> Markup {
    html! {
        svg.chart role="img" aria-labelledby=(format!("{id}-title")) viewBox=(format!("0 0 {WIDTH} {HEIGHT}"))
            preserveAspectRatio="xMidYMid meet" data-chart=(id) {
            title id=(format!("{id}-title")) { (title) }
            line.chart-axis x1=(LEFT) y1=(HEIGHT - BOTTOM) x2=(WIDTH - RIGHT) y2=(HEIGHT - BOTTOM) {}
            line.chart-axis x1=(LEFT) y1=(TOP) x2=(LEFT) y2=(HEIGHT - BOTTOM) {}
            text.chart-label x=(LEFT - 4.0) y=(TOP + 8.0) text-anchor="end" { (top_label) }
            text.chart-label x=(LEFT - 4.0) y=(HEIGHT - BOTTOM) text-anchor="end" { "0" }
            (body)
        }
    }
}

/// The `nth` label under the x axis, centred on `x`. Every other one is minor: a narrow
/// screen, whose labels are drawn larger to stay readable, hides those (`console.css`), so
/// that the labels it shows do not overlap.
fn x_label(nth: usize, x: f64, text: &str) -> Markup {
    html! {
        text.chart-label.chart-label-minor[nth % 2 == 1] x=(format!("{x:.1}")) y=(HEIGHT - 8.0) text-anchor="middle" { (text) }
    }
}

/// Bars: `values` from left to right, labelled below at a few places.
fn bars(id: &str, title: &str, values: &[(String, u64)]) -> Markup {
    let top = values.iter().map(|(_, v)| *v).max().unwrap_or(0).max(1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let slot = plot_w / values.len().max(1) as f64;
    let every = (values.len() / 8).max(1);
    frame(
        id,
        title,
        &top.to_string(),
        html! {
            @for (i, (label, value)) in values.iter().enumerate() {
                @let h = plot_h * (*value as f64) / (top as f64);
                @let x = LEFT + slot * i as f64;
                rect.chart-bar x=(format!("{:.1}", x + slot * 0.1)) y=(format!("{:.1}", TOP + plot_h - h))
                    width=(format!("{:.1}", (slot * 0.8).max(0.5))) height=(format!("{h:.1}")) {}
                @if i % every == 0 {
                    (x_label(i / every, x + slot / 2.0, label))
                }
            }
        },
    )
}

/// Deploys per week, as bars.
pub fn deploys_per_week(id: &str, environment: &str, weeks: &[WeekFigures]) -> Markup {
    let values: Vec<(String, u64)> = weeks
        .iter()
        .map(|w| (w.week.format("%m-%d").to_string(), w.deploys))
        .collect();
    bars(id, &format!("Deploys per week to {environment}"), &values)
}

/// The distribution of lead times, as bars over the bins.
pub fn lead_time_distribution(id: &str, environment: &str, lead_times: &[i64]) -> Markup {
    let values: Vec<(String, u64)> = lead_bins(lead_times)
        .into_iter()
        .map(|(label, count)| (label.to_owned(), count))
        .collect();
    bars(id, &format!("Lead times to {environment}, distribution"), &values)
}

/// The weekly median lead time, as a line (a week without a deploy breaks it).
pub fn lead_time_line(id: &str, environment: &str, weeks: &[WeekFigures]) -> Markup {
    let top = weeks
        .iter()
        .filter_map(|w| w.lead_time_median_seconds)
        .max()
        .unwrap_or(0)
        .max(1);
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let step = plot_w / weeks.len().max(1) as f64;
    let point = |i: usize, v: i64| {
        (
            LEFT + step * (i as f64 + 0.5),
            TOP + plot_h - plot_h * v as f64 / top as f64,
        )
    };
    let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (i, week) in weeks.iter().enumerate() {
        match week.lead_time_median_seconds {
            Some(v) => runs.last_mut().expect("one run at least").push(point(i, v)),
            None => runs.push(Vec::new()),
        }
    }
    let every = (weeks.len() / 8).max(1);
    frame(
        id,
        &format!("Median lead time to {environment}, week by week"),
        &duration(Some(top)),
        html! {
            @for run in runs.iter().filter(|r| !r.is_empty()) {
                polyline.chart-line points=(run.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect::<Vec<_>>().join(" ")) {}
                @for (x, y) in run {
                    circle.chart-dot cx=(format!("{x:.1}")) cy=(format!("{y:.1}")) r="2.5" {}
                }
            }
            @for (i, week) in weeks.iter().enumerate() {
                @if i % every == 0 {
                    (x_label(i / every, LEFT + step * (i as f64 + 0.5), &week.week.format("%m-%d").to_string()))
                }
            }
        },
    )
}

/// An environment's three charts, each followed by its numbers.
pub fn environment_charts(prefix: &str, e: &EnvironmentFigures) -> Markup {
    let env = e.environment.as_str();
    let id = |what: &str| format!("{prefix}-{env}-{what}");
    html! {
        figure.chart-figure {
            (deploys_per_week(&id("deploys"), env, &e.weeks))
            figcaption { "Deploys per week to " (env) " (Monday to Monday, UTC); rollbacks are not deploys." }
        }
        details.chart-numbers {
            summary { "Deploys per week to " (env) ", as numbers" }
            div.table-wrap { table data-insights-weeks=(env) {
                caption { "Deploys, rollbacks and median lead time per week, " (env) }
                thead { tr { th scope="col" { "Week of" } th scope="col" { "Deploys" } th scope="col" { "Rollbacks" } th scope="col" { "Median lead time" } } }
                tbody {
                    @for w in &e.weeks {
                        tr { th scope="row" { (w.week.format("%Y-%m-%d").to_string()) } td { (w.deploys) } td { (w.rollbacks) } td { (duration(w.lead_time_median_seconds)) } }
                    }
                }
            } }
        }
        figure.chart-figure {
            (lead_time_distribution(&id("lead-distribution"), env, &e.lead_times))
            figcaption { "Lead times to " (env) ": from the version's creation in Pulp to its arrival." }
        }
        div.table-wrap { table data-insights-lead-bins=(env) {
            caption { "Lead times to " (env) " by range" }
            thead { tr { th scope="col" { "Lead time" } th scope="col" { "Deploys" } } }
            tbody {
                @for (label, count) in lead_bins(&e.lead_times) {
                    tr { th scope="row" { (label) } td { (count) } }
                }
            }
        } }
        figure.chart-figure {
            (lead_time_line(&id("lead-line"), env, &e.weeks))
            figcaption { "Median lead time to " (env) " per week (its numbers are in the weekly table above)." }
        }
    }
}
