//! Why an upstream call failed, said twice: in the console's words for pages, API answers,
//! the audit and webhooks (what failed, and the correlation id to look for in the log), and
//! in full for the log (Pulp's own explanation, the address it was reached at, which can
//! name internal hosts, ports and databases). The adapter that meets a failure logs the
//! full text once, under the correlation id of the work under way (a request's, or a
//! deploy's: see [`super::correlation`]); nothing else ever shows it.

use std::fmt;

use super::correlation;

/// Why an upstream call failed. Adapter-neutral. Its text (`Display`) is in the console's
/// words, with the correlation id of the work under way; the details (Pulp's explanation,
/// its address) are in [`UpstreamError::detail`], which the adapter logs when it meets the
/// failure ([`UpstreamError::logged`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpstreamError {
    /// Upstream answered with an error status; `message` carries its explanation.
    Http { status: u16, message: String },
    /// Upstream refused the credentials.
    Auth(String),
    /// No answer in time. The request may or may not have been carried out.
    Timeout(String),
    /// No connection could be made (refused, DNS, TLS handshake).
    Unreachable(String),
    /// The connection broke while the request was under way (reset, closed early): it may
    /// or may not have been carried out.
    Interrupted(String),
    /// Upstream answered something the console cannot read.
    BadResponse(String),
    /// The upstream task ended in failure; the text is upstream's description.
    TaskFailed(String),
    /// The upstream task was canceled.
    TaskCanceled(String),
}

impl UpstreamError {
    /// True when this answer to a request proves upstream did not accept it: it said no
    /// (4xx), or no connection was ever made. Anything else (5xx, a lost or unreadable
    /// answer) leaves open whether upstream went ahead.
    pub fn proves_refusal(&self) -> bool {
        match self {
            Self::Http { status, .. } => (400..500).contains(status),
            Self::Auth(_) | Self::Unreachable(_) => true,
            Self::Timeout(_)
            | Self::Interrupted(_)
            | Self::BadResponse(_)
            | Self::TaskFailed(_)
            | Self::TaskCanceled(_) => false,
        }
    }

    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Http { status: 404, .. })
    }
}

impl UpstreamError {
    /// What failed, in the console's words: never Pulp's text.
    pub fn words(&self) -> String {
        match self {
            Self::Http { status: 404, .. } => "Pulp has no such object (HTTP 404)".to_owned(),
            Self::Http { status, .. } => format!("Pulp answered HTTP {status}"),
            Self::Auth(_) => "Pulp refused the console's credentials: check the console's Pulp username and password".to_owned(),
            Self::Timeout(_) => "Pulp did not answer in time; the request may or may not have been carried out".to_owned(),
            Self::Unreachable(_) => "Pulp is unreachable".to_owned(),
            Self::Interrupted(_) => "the connection to Pulp broke during the request; it may or may not have been carried out".to_owned(),
            Self::BadResponse(_) => "Pulp sent a response the console cannot read".to_owned(),
            Self::TaskFailed(_) => "the Pulp task failed".to_owned(),
            Self::TaskCanceled(_) => "the Pulp task was canceled".to_owned(),
        }
    }

    /// The whole failure, Pulp's own explanation included: for the log only.
    pub fn detail(&self) -> String {
        match self {
            Self::Http { status, message } => format!("Pulp answered HTTP {status}: {message}"),
            Self::Auth(message) => format!(
                "Authentication with Pulp failed: {}. Check the console's Pulp username and password.",
                message.trim_end_matches('.')
            ),
            Self::Timeout(message) => format!("Pulp did not answer in time ({message})"),
            Self::Unreachable(message) => format!("Pulp is unreachable: {message}"),
            Self::Interrupted(message) => format!(
                "the connection to Pulp broke during the request ({message}); it may or may not have been carried out"
            ),
            Self::BadResponse(message) => {
                format!("Pulp sent a response the console cannot read: {message}")
            }
            Self::TaskFailed(message) => format!("the Pulp task failed: {message}"),
            Self::TaskCanceled(message) => format!("the Pulp task was canceled: {message}"),
        }
    }

    /// Logs the whole failure under the current correlation id, once, where an adapter meets
    /// it (a 404, often a question's expected answer, at debug); then hands it on.
    pub fn logged(self) -> Self {
        let correlation_id = correlation::current().unwrap_or_default();
        let detail = self.detail();
        if self.is_not_found() {
            tracing::debug!(correlation_id, detail, "Pulp failure");
        } else {
            tracing::warn!(correlation_id, detail, "Pulp failure");
        }
        self
    }
}

/// The console's words, then where the details are: the correlation id the log holds them
/// under, when the work has one.
impl fmt::Display for UpstreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match correlation::current() {
            Some(id) => write!(
                f,
                "{} (correlation id {id}: the console's log has the details)",
                self.words()
            ),
            None => write!(f, "{} (the console's log has the details)", self.words()),
        }
    }
}

impl std::error::Error for UpstreamError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(detail: &str) -> Vec<UpstreamError> {
        vec![
            UpstreamError::Http {
                status: 500,
                message: detail.into(),
            },
            UpstreamError::Auth(detail.into()),
            UpstreamError::Timeout(detail.into()),
            UpstreamError::Unreachable(detail.into()),
            UpstreamError::Interrupted(detail.into()),
            UpstreamError::BadResponse(detail.into()),
            UpstreamError::TaskFailed(detail.into()),
            UpstreamError::TaskCanceled(detail.into()),
        ]
    }

    #[tokio::test]
    async fn the_text_says_what_failed_and_where_the_details_are_never_pulps_words() {
        let detail =
            "could not connect to server db.internal:5432 at https://pulp.internal/pulp/api/v3/";
        for error in all(detail) {
            let shown = correlation::scope("c-42".into(), async { error.to_string() }).await;
            assert!(!shown.contains("internal"), "{shown}");
            assert!(shown.contains("Pulp"), "{shown}");
            assert!(shown.contains("correlation id c-42"), "{shown}");
            assert!(error.detail().contains(detail), "{error:?}");
            assert!(
                !error.to_string().contains("correlation id"),
                "no work, no id"
            );
        }
    }
}
