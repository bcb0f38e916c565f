//! Prometheus metrics of the process, served at `/metrics` in the OpenMetrics text format.
//! One registry for the process ([`metrics`]); the web and Pulp adapters record into it
//! where their requests already pass (the request log, `PulpClient::call`, the deploy
//! handler), and the background work through the `EventMetrics` port (drift, webhook
//! deliveries).

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use prometheus_client::encoding::{text::encode, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::Registry;

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DeployLabels {
    outcome: &'static str,
    environment: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct PulpLabels {
    operation: String,
    status: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct HttpLabels {
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DriftLabels {
    repository: String,
    environment: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DeliveryLabels {
    outcome: &'static str,
}

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

/// The console's metrics and the registry that names them.
pub struct Metrics {
    registry: Registry,
    deploys: Family<DeployLabels, Counter>,
    deploy_duration: Histogram,
    pulp_duration: Histograms<PulpLabels>,
    http_requests: Family<HttpLabels, Counter>,
    drift: Family<DriftLabels, Gauge>,
    /// The drift readings of the last complete check (the others are dropped).
    drift_read: Mutex<HashSet<DriftLabels>>,
    deliveries: Family<DeliveryLabels, Counter>,
}

/// The process's metrics.
pub fn metrics() -> &'static Metrics {
    static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);
    &METRICS
}

fn pulp_histogram() -> Histogram {
    // 5 ms to ~41 s.
    Histogram::new(exponential_buckets(0.005, 2.0, 14))
}

impl Metrics {
    /// A registry of its own (the process's is [`metrics`]), e.g. for a test.
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let deploys = Family::<DeployLabels, Counter>::default();
        registry.register(
            "repo_console_deploys",
            "Deploys by outcome (deployed, failed, refused, not_started, unidentified)",
            deploys.clone(),
        );
        // 0.5 s to ~256 s: a deploy waits for two Pulp tasks.
        let deploy_duration = Histogram::new(exponential_buckets(0.5, 2.0, 10));
        registry.register(
            "repo_console_deploy_duration_seconds",
            "Duration of deploys that started (deployed or failed)",
            deploy_duration.clone(),
        );
        let pulp_duration =
            Histograms::<PulpLabels>::new_with_constructor(pulp_histogram as fn() -> Histogram);
        registry.register(
            "repo_console_pulp_request_duration_seconds",
            "Duration of requests to Pulp, by operation and HTTP status (error: no answer)",
            pulp_duration.clone(),
        );
        let http_requests = Family::<HttpLabels, Counter>::default();
        registry.register(
            "repo_console_http_requests",
            "Requests answered, by route template and status",
            http_requests.clone(),
        );
        let drift = Family::<DriftLabels, Gauge>::default();
        registry.register(
            "repo_console_drift",
            "1 when the environment no longer serves what the console's last change of it set (changed outside), 0 when it does",
            drift.clone(),
        );
        let deliveries = Family::<DeliveryLabels, Counter>::default();
        registry.register(
            "repo_console_webhook_deliveries",
            "Webhook delivery attempts by how they ended (delivered, retried, given_up)",
            deliveries.clone(),
        );
        let build = Info::new(vec![("version", env!("CARGO_PKG_VERSION"))]);
        registry.register("repo_console_build", "The console's version", build);
        Self {
            registry,
            deploys,
            deploy_duration,
            pulp_duration,
            http_requests,
            drift,
            drift_read: Mutex::default(),
            deliveries,
        }
    }

    /// A deploy request ended with `outcome`; `started` is the duration of one that started.
    pub fn deploy_ended(
        &self,
        outcome: &'static str,
        environment: &str,
        started: Option<Duration>,
    ) {
        let labels = DeployLabels {
            outcome,
            environment: environment.to_owned(),
        };
        self.deploys.get_or_create(&labels).inc();
        if let Some(took) = started {
            self.deploy_duration.observe(took.as_secs_f64());
        }
    }

    /// One request to Pulp: its operation (method and API route template), its status
    /// (`None`: no answer) and how long it took.
    pub fn pulp_request(&self, operation: String, status: Option<u16>, took: Duration) {
        let status = status.map_or_else(|| "error".to_owned(), |s| s.to_string());
        let labels = PulpLabels { operation, status };
        self.pulp_duration
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
    }

    /// One HTTP answer of the console.
    pub fn http_request(&self, route: &str, status: u16) {
        let route = route.to_owned();
        self.http_requests
            .get_or_create(&HttpLabels { route, status })
            .inc();
    }

    /// Every metric, in the OpenMetrics text format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl crate::ports::EventMetrics for Metrics {
    fn drift_checked(&self, readings: &[crate::ports::DriftReading], complete: bool) {
        let mut read = self.drift_read.lock().unwrap_or_else(|p| p.into_inner());
        let mut now = HashSet::new();
        for reading in readings {
            let labels = DriftLabels {
                repository: reading.repository.clone(),
                environment: reading.environment.to_string(),
            };
            self.drift
                .get_or_create(&labels)
                .set(i64::from(reading.drifted));
            now.insert(labels);
        }
        if complete {
            for gone in read.difference(&now) {
                self.drift.remove(gone);
            }
            *read = now;
        } else {
            read.extend(now);
        }
    }

    fn delivery(&self, end: crate::ports::AttemptEnd) {
        let outcome = end.as_str();
        self.deliveries
            .get_or_create(&DeliveryLabels { outcome })
            .inc();
    }
}

/// A Pulp request's operation label: its method and API path with ids and numbers replaced
/// (`GET repositories/rpm/rpm/{id}/versions/{n}/`), so the label set stays bounded.
pub fn pulp_operation(method: &str, url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = path.split_once("://").map_or(path, |(_, rest)| {
        rest.split_once('/').map_or("", |(_, p)| p)
    });
    let path = path.split_once("api/v3/").map_or(path, |(_, rest)| rest);
    let template: Vec<&str> = path
        .split('/')
        .map(|segment| match segment {
            s if uuid::Uuid::parse_str(s).is_ok() => "{id}",
            s if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => "{n}",
            s => s,
        })
        .collect();
    format!("{method} {}", template.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pulp_operation_names_its_route_not_its_ids() {
        let url = "http://pulp:8080/pulp/api/v3/repositories/rpm/rpm/0199a1b2-0000-7000-8000-00000000000a/versions/12/?fields=x";
        assert_eq!(
            pulp_operation("GET", url),
            "GET repositories/rpm/rpm/{id}/versions/{n}/"
        );
        assert_eq!(
            pulp_operation("POST", "https://p/pulp/api/v3/publications/rpm/rpm/"),
            "POST publications/rpm/rpm/"
        );
    }

    #[test]
    fn a_complete_drift_check_drops_the_readings_it_no_longer_has() {
        use crate::ports::{DriftReading, EventMetrics};
        let m = Metrics::new();
        let reading = |repository: &str, drifted| DriftReading {
            repository: repository.into(),
            environment: crate::domain::EnvironmentName::production(),
            drifted,
        };
        m.drift_checked(&[reading("a", true), reading("b", false)], true);
        m.drift_checked(&[reading("a", false)], false);
        assert!(
            m.render().contains("repository=\"b\""),
            "an incomplete check drops nothing"
        );
        m.drift_checked(&[reading("a", false)], true);
        let text = m.render();
        assert!(!text.contains("repository=\"b\""), "{text}");
        assert!(
            text.contains("repo_console_drift{repository=\"a\",environment=\"production\"} 0"),
            "{text}"
        );
    }

    #[test]
    fn every_metric_is_named_as_documented() {
        let m = Metrics::new();
        m.deploy_ended("deployed", "production", Some(Duration::from_secs(3)));
        m.pulp_request(
            "GET tasks/{id}/".into(),
            Some(200),
            Duration::from_millis(20),
        );
        m.pulp_request("GET status/".into(), None, Duration::from_millis(20));
        m.http_request("/repos/{uuid}/versions", 200);
        let reading = |repository: &str, drifted| crate::ports::DriftReading {
            repository: repository.into(),
            environment: crate::domain::EnvironmentName::parse("staging").unwrap(),
            drifted,
        };
        use crate::ports::EventMetrics;
        m.drift_checked(&[reading("base-os", true), reading("gone", false)], true);
        m.delivery(crate::ports::AttemptEnd::GivenUp);
        let text = m.render();
        for line in [
            "repo_console_deploys_total{outcome=\"deployed\",environment=\"production\"} 1",
            "repo_console_deploy_duration_seconds_count 1",
            "repo_console_pulp_request_duration_seconds_count{operation=\"GET tasks/{id}/\",status=\"200\"} 1",
            "repo_console_pulp_request_duration_seconds_count{operation=\"GET status/\",status=\"error\"} 1",
            "repo_console_http_requests_total{route=\"/repos/{uuid}/versions\",status=\"200\"} 1",
            "repo_console_drift{repository=\"base-os\",environment=\"staging\"} 1",
            "repo_console_drift{repository=\"gone\",environment=\"staging\"} 0",
            "repo_console_webhook_deliveries_total{outcome=\"given_up\"} 1",
            &format!("repo_console_build_info{{version=\"{}\"}} 1", env!("CARGO_PKG_VERSION")),
        ] {
            assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
        }
    }
}
