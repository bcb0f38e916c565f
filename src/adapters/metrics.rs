//! Prometheus metrics of the console, served at `/metrics` in the OpenMetrics text format: the
//! adapter of the [`EventMetrics`] port. The composition root builds one and hands it to the
//! state (the deploy use case, the reconciler, the web edge's request count, `/metrics`), to
//! the Pulp client and to the webhook deliveries; there is no process-wide instance.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use prometheus_client::encoding::{text::encode, EncodeLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{exponential_buckets, Histogram};
use prometheus_client::metrics::info::Info;
use prometheus_client::registry::Registry;

use crate::domain::environment::EnvironmentName;
use crate::ports::{AttemptEnd, DeployAsked, DeployEnd, DriftReading, EventMetrics};

/// The content type of [`Metrics::render`].
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct DeployLabels {
    outcome: &'static str,
    asked: &'static str,
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
struct ChainLabels {
    log: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct SignInLabels {
    event: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct LeadTimeLabels {
    environment: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EdgeLabels {
    edge: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct EdgeStateLabels {
    state: &'static str,
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
    edge_lag: Family<EdgeLabels, Gauge>,
    edge_states: Family<EdgeStateLabels, Gauge>,
    cve_advisories: Gauge,
    cve_cves: Gauge,
    cve_refreshed: Gauge,
    chain_intact: Family<ChainLabels, Gauge>,
    chain_broken_line: Family<ChainLabels, Gauge>,
    chain_checked: Gauge,
    sign_ins: Family<SignInLabels, Counter>,
    lead_time: Histograms<LeadTimeLabels>,
}

fn lead_time_histogram() -> Histogram {
    // 15 minutes to about 85 days.
    Histogram::new(exponential_buckets(900.0, 2.0, 14))
}

fn pulp_histogram() -> Histogram {
    // 5 ms to ~41 s.
    Histogram::new(exponential_buckets(0.005, 2.0, 14))
}

impl Metrics {
    /// A registry of its own: the console's (the composition root makes one), or a test's.
    pub fn new() -> Self {
        let mut registry = Registry::default();
        let deploys = Family::<DeployLabels, Counter>::default();
        registry.register(
            "repo_console_deploys",
            "Deploys, one per repository and environment asked for, whatever asked it (each member of a release counts as one), by outcome (deployed, failed, refused, requested, not_started, unidentified), how it was asked (asked: deploy, rollback, release, schedule, automation, approval) and environment",
            deploys.clone(),
        );
        // 0.5 s to ~256 s: a deploy waits for two Pulp tasks.
        let deploy_duration = Histogram::new(exponential_buckets(0.5, 2.0, 10));
        registry.register(
            "repo_console_deploy_duration_seconds",
            "Duration of deploys that started (deployed or failed), each member of a release from the start of its promotion",
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
        let edge_lag = Family::<EdgeLabels, Gauge>::default();
        registry.register(
            "repo_console_edge_lag_seconds",
            "Seconds an edge Pulp has not served what production serves (its longest distribution; 0 when it serves all)",
            edge_lag.clone(),
        );
        let edge_states = Family::<EdgeStateLabels, Gauge>::default();
        registry.register(
            "repo_console_edges",
            "Distributions of the edge Pulps by state (serving, behind, replicating, other, failed, unreachable, missing)",
            edge_states.clone(),
        );
        let [cve_advisories, cve_cves, cve_refreshed] = [(); 3].map(|()| Gauge::default());
        registry.register(
            "repo_console_cve_index_advisories",
            "Advisory units the CVE index holds (0 until the first CVE query builds it)",
            cve_advisories.clone(),
        );
        registry.register(
            "repo_console_cve_index_cves",
            "Distinct CVEs the advisories of the CVE index name",
            cve_cves.clone(),
        );
        registry.register(
            "repo_console_cve_index_refreshed_timestamp_seconds",
            "When the CVE index was last brought up to date (Unix time; 0: never)",
            cve_refreshed.clone(),
        );
        let chain_intact = Family::<ChainLabels, Gauge>::default();
        registry.register(
            "repo_console_audit_chain_intact",
            "1 when the last check found the audit log's hash chain intact, 0 when a line was changed, removed or reordered (by log: the file, or the table)",
            chain_intact.clone(),
        );
        let chain_broken_line = Family::<ChainLabels, Gauge>::default();
        registry.register(
            "repo_console_audit_chain_broken_line",
            "The first line (1-based) that breaks the audit log's hash chain at the last check; 0 when intact",
            chain_broken_line.clone(),
        );
        let chain_checked = Gauge::default();
        registry.register(
            "repo_console_audit_chain_checked_timestamp_seconds",
            "When the audit log's hash chain was last checked (Unix time; 0: never)",
            chain_checked.clone(),
        );
        let lead_time = Histograms::<LeadTimeLabels>::new_with_constructor(
            lead_time_histogram as fn() -> Histogram,
        );
        registry.register(
            "repo_console_lead_time_seconds",
            "Lead time of deploys (rollbacks not counted), from the version's creation in Pulp to its arrival, by environment; counted once, by the replica that made the deploy",
            lead_time.clone(),
        );
        let sign_ins = Family::<SignInLabels, Counter>::default();
        registry.register(
            "repo_console_sign_ins",
            "OIDC sign-in events (event: signed_in, refused, signed_out, expired)",
            sign_ins.clone(),
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
            edge_lag,
            edge_states,
            cve_advisories,
            cve_cves,
            cve_refreshed,
            chain_intact,
            chain_broken_line,
            chain_checked,
            sign_ins,
            lead_time,
        }
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl EventMetrics for Metrics {
    fn audit_chain_checked(&self, reports: &[crate::ports::audit_chain::ChainReport]) {
        for report in reports {
            let labels = ChainLabels {
                log: report.log.clone(),
            };
            let broken_line = report.verdict.as_ref().err().map_or(0, |b| b.line);
            self.chain_intact
                .get_or_create(&labels)
                .set(i64::from(report.is_intact()));
            self.chain_broken_line
                .get_or_create(&labels)
                .set(i64::try_from(broken_line).unwrap_or(i64::MAX));
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        self.chain_checked.set(now);
    }

    fn lead_time(&self, environment: &EnvironmentName, seconds: i64) {
        let labels = LeadTimeLabels {
            environment: environment.as_str().to_owned(),
        };
        self.lead_time
            .get_or_create(&labels)
            .observe(seconds.max(0) as f64);
    }

    fn deploy_ended(
        &self,
        end: DeployEnd,
        asked: DeployAsked,
        environment: Option<&EnvironmentName>,
        took: Option<Duration>,
    ) {
        let labels = DeployLabels {
            outcome: end.as_str(),
            asked: asked.as_str(),
            environment: environment
                .map_or("unknown", EnvironmentName::as_str)
                .to_owned(),
        };
        self.deploys.get_or_create(&labels).inc();
        if let Some(took) = took {
            self.deploy_duration.observe(took.as_secs_f64());
        }
    }

    fn drift_checked(&self, readings: &[DriftReading], complete: bool) {
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

    fn edges_judged(&self, lags: &[(String, i64)], states: &[(&'static str, i64)]) {
        for (edge, lag) in lags {
            self.edge_lag
                .get_or_create(&EdgeLabels { edge: edge.clone() })
                .set(*lag);
        }
        for (state, count) in states {
            self.edge_states
                .get_or_create(&EdgeStateLabels { state })
                .set(*count);
        }
    }

    fn delivery(&self, end: AttemptEnd) {
        let outcome = end.as_str();
        self.deliveries
            .get_or_create(&DeliveryLabels { outcome })
            .inc();
    }

    fn http_answered(&self, route: &str, status: u16) {
        let route = route.to_owned();
        self.http_requests
            .get_or_create(&HttpLabels { route, status })
            .inc();
    }

    fn upstream_request(&self, operation: String, status: Option<u16>, took: Duration) {
        let status = status.map_or_else(|| "error".to_owned(), |s| s.to_string());
        let labels = PulpLabels { operation, status };
        self.pulp_duration
            .get_or_create(&labels)
            .observe(took.as_secs_f64());
    }

    fn cve_index(&self, advisories: usize, cves: usize, refreshed_unix: i64) {
        self.cve_advisories
            .set(i64::try_from(advisories).unwrap_or(i64::MAX));
        self.cve_cves.set(i64::try_from(cves).unwrap_or(i64::MAX));
        self.cve_refreshed.set(refreshed_unix);
    }

    fn sign_in(&self, event: &'static str) {
        let labels = SignInLabels {
            event: event.to_owned(),
        };
        self.sign_ins.get_or_create(&labels).inc();
    }

    fn render(&self) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut text, &self.registry);
        text
    }

    fn content_type(&self) -> &'static str {
        CONTENT_TYPE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_complete_drift_check_drops_the_readings_it_no_longer_has() {
        let m = Metrics::new();
        let reading = |repository: &str, drifted| DriftReading {
            repository: repository.into(),
            environment: crate::domain::environment::EnvironmentName::production(),
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
        let production = EnvironmentName::production();
        m.deploy_ended(
            DeployEnd::Deployed,
            DeployAsked::Release,
            Some(&production),
            Some(Duration::from_secs(3)),
        );
        m.deploy_ended(DeployEnd::Unidentified, DeployAsked::Deploy, None, None);
        m.upstream_request(
            "GET tasks/{id}/".into(),
            Some(200),
            Duration::from_millis(20),
        );
        m.upstream_request("GET status/".into(), None, Duration::from_millis(20));
        m.http_answered("/repos/{uuid}/versions", 200);
        let reading = |repository: &str, drifted| crate::ports::DriftReading {
            repository: repository.into(),
            environment: crate::domain::environment::EnvironmentName::parse("staging").unwrap(),
            drifted,
        };
        m.drift_checked(&[reading("base-os", true), reading("gone", false)], true);
        m.delivery(crate::ports::AttemptEnd::GivenUp);
        let text = m.render();
        for line in [
            "repo_console_deploys_total{outcome=\"deployed\",asked=\"release\",environment=\"production\"} 1",
            "repo_console_deploys_total{outcome=\"unidentified\",asked=\"deploy\",environment=\"unknown\"} 1",
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
