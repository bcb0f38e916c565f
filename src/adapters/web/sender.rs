//! The sender of the request being answered, as the identity middleware found it: kept for the
//! length of the request so that any page it renders can show it in the header bar, and the
//! words that tell an unidentified operator why and what to do.

use crate::domain::identity::Operator;
use crate::ports::Unidentified;

tokio::task_local! {
    static SENDER: Result<Operator, Unidentified>;
}

/// Runs `answer` with `sender` as the sender of the request.
pub async fn with_sender<F: std::future::Future>(
    sender: Result<Operator, Unidentified>,
    answer: F,
) -> F::Output {
    SENDER.scope(sender, answer).await
}

/// The sender of the request being answered; `None` outside a request (tests rendering a page).
pub fn current_sender() -> Option<Result<Operator, Unidentified>> {
    SENDER.try_with(Clone::clone).ok()
}

/// Why the sender is not known, and what to do about it (ends with a period).
pub fn not_identified(why: &Unidentified) -> String {
    format!("the console cannot tell who you are; {why}. Open the console through the authenticating proxy.")
}
