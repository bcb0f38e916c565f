//! The sender of the request being answered, as the identity middleware found it: kept for the
//! length of the request so that any page it renders can show it in the header bar, and the
//! words that tell an unidentified operator why and what to do.

use crate::domain::identity::Operator;
use crate::ports::Unidentified;

tokio::task_local! {
    static SENDER: Result<Operator, Unidentified>;
    /// Whether operators sign in with an OIDC provider (the header then offers to sign in
    /// or out).
    static SIGNING_IN: bool;
}

/// Runs `answer` with `sender` as the sender of the request.
pub async fn with_sender<F: std::future::Future>(
    sender: Result<Operator, Unidentified>,
    answer: F,
) -> F::Output {
    SENDER.scope(sender, answer).await
}

/// Runs `answer` knowing whether operators sign in with an OIDC provider.
pub async fn with_signing_in<F: std::future::Future>(signing_in: bool, answer: F) -> F::Output {
    SIGNING_IN.scope(signing_in, answer).await
}

/// Whether operators sign in with an OIDC provider (false outside a request).
pub fn signing_in() -> bool {
    SIGNING_IN.try_with(|on| *on).unwrap_or(false)
}

/// The sender of the request being answered; `None` outside a request (tests rendering a page).
pub fn current_sender() -> Option<Result<Operator, Unidentified>> {
    SENDER.try_with(Clone::clone).ok()
}

/// Why the sender is not known, and what to do about it (ends with a period).
pub fn not_identified(why: &Unidentified) -> String {
    match why {
        Unidentified::NotSignedIn
        | Unidentified::SessionEnded { .. }
        | Unidentified::SessionsUnreadable { .. } => {
            format!("the console cannot tell who you are; {why}.")
        }
        _ => format!("the console cannot tell who you are; {why}. Open the console through the authenticating proxy."),
    }
}
