//! `/metrics` for a person (a browser asks for `text/html`): the same figures Prometheus
//! scrapes, read from the exposition text and shown in the console's layout, a table per
//! metric (`data-metric`: its name; its help and type; a row per series with its labels and
//! value, `data-sample`).

use maud::{html, Markup};

use super::layout::{back_link, page};

/// One metric of the exposition: its name, help, type and series.
#[derive(Debug, Default, PartialEq)]
struct Family {
    name: String,
    help: String,
    kind: String,
    samples: Vec<Sample>,
}

/// One series: the sample's name (the family's, or with a suffix such as `_total`), its
/// labels as written, and its value.
#[derive(Debug, PartialEq)]
struct Sample {
    name: String,
    labels: Vec<(String, String)>,
    value: String,
}

/// The whole page, from the exposition text.
pub fn metrics_page(exposition: &str) -> Markup {
    let families = families(exposition);
    page(
        "Metrics",
        html! {
            div.title-row { (back_link()) h1 { "Metrics" } }
            p.muted {
                "What this console measured since it started. Prometheus reads the same address as text "
                "(it asks for " code { "application/openmetrics-text" } " or " code { "text/plain" } "); "
                "a browser gets this page."
            }
            @if families.is_empty() { p.muted id="metrics-empty" { "Nothing measured yet." } }
            @for family in &families {
                section.metric data-metric=(family.name) aria-labelledby={ "metric-" (family.name) } {
                    h2 id={ "metric-" (family.name) } { code { (family.name) } }
                    p { (family.help) @if !family.kind.is_empty() { " " span.muted { "(" (family.kind) ")" } } }
                    @if family.samples.is_empty() {
                        p.muted { "No series yet." }
                    } @else {
                        div.table-wrap { table.metric-table {
                            caption.sr-only { "The series of " (family.name) }
                            thead { tr { th scope="col" { "Series" } th scope="col" { "Labels" } th scope="col" { "Value" } } }
                            tbody {
                                @for sample in &family.samples {
                                    tr data-sample=(sample.name) {
                                        td { code { (sample.name) } }
                                        td.metric-labels {
                                            @for (i, (key, value)) in sample.labels.iter().enumerate() {
                                                @if i > 0 { " " }
                                                span.metric-label { (key) "=" bdi { (value) } }
                                            }
                                        }
                                        td.num { (sample.value) }
                                    }
                                }
                            }
                        } }
                    }
                }
            }
        },
    )
}

/// The metrics of an exposition (OpenMetrics or Prometheus text), in its order.
fn families(text: &str) -> Vec<Family> {
    let mut families: Vec<Family> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# ") {
            let mut words = rest.splitn(3, ' ');
            let (Some(keyword), Some(name)) = (words.next(), words.next()) else {
                continue;
            };
            let value = words.next().unwrap_or_default();
            let family = match families.last_mut() {
                Some(last) if last.name == name => last,
                _ => {
                    families.push(Family {
                        name: name.to_owned(),
                        ..Family::default()
                    });
                    families.last_mut().expect("just pushed")
                }
            };
            match keyword {
                "HELP" => family.help = unescape(value),
                "TYPE" => family.kind = value.to_owned(),
                _ => {}
            }
        } else if let Some(sample) = sample(line) {
            match families.last_mut() {
                Some(family) if sample.name.starts_with(&family.name) => {
                    family.samples.push(sample)
                }
                _ => families.push(Family {
                    name: sample.name.clone(),
                    samples: vec![sample],
                    ..Family::default()
                }),
            }
        }
    }
    families
}

/// One sample line: `name{label="value",…} value [timestamp]`.
fn sample(line: &str) -> Option<Sample> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let name_end = line.find(['{', ' '])?;
    let name = line[..name_end].to_owned();
    let mut rest = &line[name_end..];
    let mut labels = Vec::new();
    if let Some(inside) = rest.strip_prefix('{') {
        let mut chars = inside.char_indices();
        let mut key = String::new();
        loop {
            let (i, c) = chars.next()?;
            match c {
                '}' => {
                    rest = &inside[i + 1..];
                    break;
                }
                ',' | ' ' => {}
                '=' => {
                    let (_, '"') = chars.next()? else { return None };
                    let mut value = String::new();
                    loop {
                        match chars.next()?.1 {
                            '\\' => match chars.next()?.1 {
                                'n' => value.push('\n'),
                                other => value.push(other),
                            },
                            '"' => break,
                            other => value.push(other),
                        }
                    }
                    labels.push((std::mem::take(&mut key), value));
                }
                other => key.push(other),
            }
        }
    }
    let value = rest.split_whitespace().next()?.to_owned();
    Some(Sample {
        name,
        labels,
        value,
    })
}

/// A HELP text as written: `\\` and `\n` escaped.
fn unescape(text: &str) -> String {
    text.replace("\\n", "\n").replace("\\\\", "\\")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"# HELP deploys Deploys, by environment and outcome.
# TYPE deploys counter
deploys_total{environment="production",outcome="deployed"} 3
deploys_total{environment="a \"quoted\", b",outcome="refused"} 1
# HELP up Whether it runs.
# TYPE up gauge
up 1
# EOF
"#;

    #[test]
    fn the_exposition_reads_back_as_families_with_their_series() {
        let read = families(TEXT);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].name, "deploys");
        assert_eq!(read[0].kind, "counter");
        assert_eq!(read[0].help, "Deploys, by environment and outcome.");
        assert_eq!(read[0].samples.len(), 2);
        assert_eq!(
            read[0].samples[1].labels,
            vec![
                ("environment".to_owned(), "a \"quoted\", b".to_owned()),
                ("outcome".to_owned(), "refused".to_owned())
            ]
        );
        assert_eq!(read[0].samples[1].value, "1");
        assert_eq!(read[1].samples[0].name, "up");
        assert_eq!(read[1].samples[0].value, "1");
    }

    #[test]
    fn every_figure_is_on_the_page_escaped() {
        let html = metrics_page(TEXT).into_string();
        assert!(html.contains(r#"data-metric="deploys""#));
        assert!(html.contains("a &quot;quoted&quot;, b"));
    }
}
