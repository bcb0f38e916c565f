//! The link to the next page of a list of requests, the same for the page and the API.

use crate::domain::approval::listing::StateFilter;
use crate::domain::ids::RequestId;

/// `path` with the filter and the cursor of the page after `after`.
pub fn next_link(path: &str, filter: StateFilter, after: &RequestId) -> String {
    match filter.word() {
        Some(state) => format!("{path}?state={state}&after={after}"),
        None => format!("{path}?after={after}"),
    }
}
