//! The console's background work, started with the server and stopped after it: diffs
//! computed ahead, webhook deliveries, the drift reconciler, the due schedules, and the
//! periodic check of the audit log's hash chain.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::adapters::clock_system::SystemClock;
use crate::adapters::webhook::HttpWebhookSender;
use crate::app::events::delivery::{self, Deliverer, DeliverySettings};
use crate::app::events::{catch_up, retention};
use crate::app::{
    approvals, audit_chain, checks, diffs::ahead, events::reconcile, schedules, AppState, Events,
};
use crate::ports::{EventMetrics, EventOutbox};

use crate::wiring::sections::webhooks::WebhookSettings;

/// The events of the configured webhooks, kept in `outbox`, and what delivers them; `None`
/// without webhooks.
pub(super) fn webhooks(
    settings: &WebhookSettings,
    outbox: Arc<dyn EventOutbox>,
    metrics: Arc<dyn EventMetrics>,
) -> Option<Deliverer> {
    if settings.hooks.is_empty() {
        return None;
    }
    let subscriptions = settings.hooks.iter().map(|h| h.subscription.clone());
    let events = Events::new(
        outbox.clone(),
        subscriptions.collect(),
        Arc::new(SystemClock),
    );
    let secrets = settings
        .hooks
        .iter()
        .map(|h| (h.subscription.url.clone(), h.secret.clone()));
    let mut sender = HttpWebhookSender::new(secrets, settings.source.clone(), settings.timeout)
        .with_deprecated_signature(settings.deprecated_signature);
    for hook in &settings.hooks {
        if let Some(roots) = &hook.trusted {
            sender = sender.trusting(hook.subscription.url.clone(), roots.clone());
        }
    }
    for hook in &settings.hooks {
        let events: Vec<&str> = hook
            .subscription
            .events
            .iter()
            .map(|e| e.as_str())
            .collect();
        tracing::info!(webhook = %hook.subscription.url, ?events, outbox = %outbox.target(), "webhook");
    }
    Some(Deliverer {
        events,
        sender: Arc::new(sender),
        metrics,
        settings: DeliverySettings {
            retry: settings.retry,
            ..DeliverySettings::default()
        },
    })
}

/// The running background work and what stops it.
pub(super) struct Background {
    stop: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Background {
    /// Starts every worker the configuration asks for.
    pub fn start(
        state: &AppState,
        deliverer: Option<Deliverer>,
        drift_every: Duration,
        retention: Duration,
        request_retention: chrono::Duration,
        check_retention: chrono::Duration,
        schedules: crate::wiring::sections::schedules::ScheduleSettings,
    ) -> Self {
        let (stop, stopped) = watch::channel(false);
        let until_stopped = move || {
            let mut stopped = stopped.clone();
            async move {
                let _ = stopped.wait_for(|&s| s).await;
            }
        };
        let mut tasks = vec![
            tokio::spawn(ahead::work(state.clone(), until_stopped())),
            tokio::spawn(approvals::retention::work(
                state.clone(),
                request_retention,
                until_stopped(),
            )),
            tokio::spawn(schedules::run::work(
                state.clone(),
                schedules.every,
                until_stopped(),
            )),
            tokio::spawn(checks::retention::work(
                state.clone(),
                check_retention,
                until_stopped(),
            )),
            tokio::spawn(schedules::retention::work(
                state.clone(),
                schedules.retention,
                until_stopped(),
            )),
        ];
        if let Some(sign_in) = state.signing_in() {
            let forgetting = crate::app::sign_in::retention::work(sign_in.clone(), until_stopped());
            tasks.push(tokio::spawn(forgetting));
        }
        if let Some(deliverer) = deliverer {
            let compacting = retention::work(deliverer.events.clone(), retention, until_stopped());
            tasks.push(tokio::spawn(compacting));
            // First the events a console stopped between an audit line and its event lacked.
            let completing = state.clone();
            let delivering = delivery::work(deliverer, until_stopped());
            tasks.push(tokio::spawn(async move {
                catch_up::complete_from_audit(&completing).await;
                delivering.await;
            }));
        }
        if drift_every.is_zero() {
            tracing::info!("drift checks are off (drift.interval_secs = 0)");
        } else {
            let reconciling = reconcile::work(state.clone(), drift_every, until_stopped());
            tasks.push(tokio::spawn(reconciling));
        }
        Self { stop, tasks }
    }

    /// Also checks the audit log's hash chain every `every` (zero: never, said once).
    pub fn check_audit_chain(&mut self, state: &AppState, every: Duration) {
        if every.is_zero() {
            tracing::info!("audit chain checks are off (audit.verify_interval_secs = 0)");
            return;
        }
        let mut stopped = self.stop.subscribe();
        let until_stopped = async move {
            let _ = stopped.wait_for(|&s| s).await;
        };
        let checking = audit_chain::work(state.clone(), every, until_stopped);
        self.tasks.push(tokio::spawn(checking));
    }

    /// Stops every worker (at once; [`Background::stop`] then waits for them).
    pub fn stopper(&self) -> impl Fn() {
        let stop = self.stop.clone();
        move || {
            let _ = stop.send(true);
        }
    }

    /// Stops every worker and waits for them.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        for task in self.tasks {
            let _ = task.await;
        }
    }
}
