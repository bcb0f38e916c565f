//! What upstream says of the task a piece of work waits for (a deploy's publication), told
//! to whoever runs that work, without every port method taking a listener: the work runs
//! inside [`scope`], and an adapter that polls a task tells each report it reads to
//! [`seen`]. Outside a scope, [`seen`] does nothing.

use std::future::Future;
use std::sync::Arc;

use crate::domain::sync::TaskReport;

/// Told each report of a task the work waits for.
pub type TaskListener = Arc<dyn Fn(&TaskReport) + Send + Sync>;

tokio::task_local! {
    static LISTENER: TaskListener;
}

/// Runs `work`, telling `listener` each task report an adapter reads for it.
pub async fn scope<F: Future>(listener: TaskListener, work: F) -> F::Output {
    LISTENER.scope(listener, work).await
}

/// An adapter read `report` of a task it waits for.
pub fn seen(report: &TaskReport) {
    let _ = LISTENER.try_with(|listener| listener(report));
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;
    use crate::domain::repository::TaskHref;
    use crate::domain::sync::TaskState;

    fn report() -> TaskReport {
        TaskReport {
            href: TaskHref::new("/t/"),
            state: TaskState::Running,
            progress: Vec::new(),
            error: None,
            created_resources: Vec::new(),
        }
    }

    #[tokio::test]
    async fn reports_reach_the_listener_of_their_scope_only() {
        let heard = Arc::new(AtomicUsize::new(0));
        let counter = heard.clone();
        let listener: TaskListener = Arc::new(move |_| {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        seen(&report());
        scope(listener, async {
            seen(&report());
            seen(&report());
        })
        .await;
        seen(&report());
        assert_eq!(heard.load(Ordering::SeqCst), 2);
    }
}
