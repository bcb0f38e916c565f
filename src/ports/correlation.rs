//! The correlation id of the work in progress (a deploy's `deploy_id`), carried with the
//! task that does it, so that an adapter can pass it upstream (the Pulp adapter sends it as
//! `Correlation-ID`, which Pulp keeps as its tasks' `logging_cid`) without every port method
//! taking it as an argument.

use std::future::Future;

tokio::task_local! {
    static CORRELATION_ID: String;
}

/// Runs `work` with `id` as its correlation id.
pub async fn scope<F: Future>(id: String, work: F) -> F::Output {
    CORRELATION_ID.scope(id, work).await
}

/// The correlation id of the work this task is doing, if any.
pub fn current() -> Option<String> {
    CORRELATION_ID.try_with(Clone::clone).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_id_is_known_inside_its_scope_only() {
        assert_eq!(current(), None);
        let inside = scope("d-1".into(), async { current() }).await;
        assert_eq!(inside.as_deref(), Some("d-1"));
        assert_eq!(current(), None);
    }
}
