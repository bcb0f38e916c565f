//! Paging through requests, newest first: an optional filter by state (the word pages and
//! the API show), and a cursor that is the id of the last request of the previous page, so
//! that a page stays put while newer requests are made (they come before it).

use super::request::RequestState;
use crate::domain::ids::RequestId;

/// The words a request's state is shown as, in the order a form lists them.
pub const STATE_WORDS: [&str; 9] = [
    "pending",
    "executing",
    "scheduled",
    "executed",
    "failed",
    "stale",
    "rejected",
    "cancelled",
    "expired",
];

/// Which requests a list shows: those in one state, or every one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StateFilter(Option<&'static str>);

/// A state word that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a request state: use one of {words}", words = STATE_WORDS.join(", "))]
pub struct UnknownState(pub String);

impl StateFilter {
    /// Every request.
    pub const ANY: Self = Self(None);

    /// From a query's `state=` (blank: any).
    pub fn parse(text: &str) -> Result<Self, UnknownState> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(Self::ANY);
        }
        STATE_WORDS
            .iter()
            .find(|word| word.eq_ignore_ascii_case(text))
            .map(|word| Self(Some(word)))
            .ok_or_else(|| UnknownState(text.to_owned()))
    }

    /// Requests in `state`.
    pub fn only(state: &RequestState) -> Self {
        Self(Some(state.word()))
    }

    pub fn word(self) -> Option<&'static str> {
        self.0
    }

    pub fn keeps(self, state: &RequestState) -> bool {
        self.0.is_none_or(|word| word == state.word())
    }
}

/// One page of a list and where the next one starts (`None`: this was the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_after: Option<RequestId>,
}

/// A cursor that names no request of the list (pruned since, or made up).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("there is no request {0} to continue after: start again from the first page")]
pub struct UnknownCursor(pub RequestId);

/// The page of `newest_first` after the request `after` (from the start without one): at
/// most `size` of those `keep` accepts.
pub fn page_of<T>(
    newest_first: Vec<T>,
    id_of: impl Fn(&T) -> &RequestId,
    keep: impl Fn(&T) -> bool,
    after: Option<&RequestId>,
    size: usize,
) -> Result<Page<T>, UnknownCursor> {
    let start = match after {
        None => 0,
        Some(cursor) => {
            newest_first
                .iter()
                .position(|item| id_of(item) == cursor)
                .ok_or_else(|| UnknownCursor(cursor.clone()))?
                + 1
        }
    };
    let mut kept = newest_first
        .into_iter()
        .skip(start)
        .filter(|item| keep(item));
    let items: Vec<T> = kept.by_ref().take(size.max(1)).collect();
    let more = kept.next().is_some();
    let next_after = more
        .then(|| items.last().map(|item| id_of(item).clone()))
        .flatten();
    Ok(Page { items, next_after })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: usize) -> RequestId {
        RequestId::parse(&format!("r-{n}")).unwrap()
    }

    /// 250 requests, newest first, every third one "pending".
    fn history() -> Vec<(RequestId, bool)> {
        (0..250).rev().map(|n| (id(n), n % 3 == 0)).collect()
    }

    fn walk(filter_pending: bool) -> Vec<RequestId> {
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = page_of(
                history(),
                |(id, _)| id,
                |(_, pending)| !filter_pending || *pending,
                after.as_ref(),
                100,
            )
            .unwrap();
            assert!(page.items.len() <= 100);
            seen.extend(page.items.into_iter().map(|(id, _)| id));
            match page.next_after {
                Some(next) => after = Some(next),
                None => return seen,
            }
        }
    }

    #[test]
    fn paging_through_everything_sees_each_request_once_newest_first() {
        let all = walk(false);
        assert_eq!(all.len(), 250);
        assert_eq!(all.first(), Some(&id(249)));
        assert_eq!(all.last(), Some(&id(0)));
        let pending = walk(true);
        assert_eq!(pending.len(), 84);
        assert!(pending.windows(2).all(|w| w[0] != w[1]));
    }

    #[test]
    fn the_last_page_says_so_even_when_it_is_full() {
        let page = page_of(history(), |(id, _)| id, |_| true, Some(&id(50)), 50).unwrap();
        assert_eq!(page.items.len(), 50);
        assert_eq!(page.next_after, None);
    }

    #[test]
    fn a_cursor_that_names_no_request_is_refused() {
        let unknown = page_of(history(), |(id, _)| id, |_| true, Some(&id(999)), 10);
        assert_eq!(unknown, Err(UnknownCursor(id(999))));
    }

    #[test]
    fn a_state_is_parsed_from_its_word_in_any_case() {
        assert_eq!(StateFilter::parse("").unwrap(), StateFilter::ANY);
        assert_eq!(
            StateFilter::parse("Pending").unwrap().word(),
            Some("pending")
        );
        let err = StateFilter::parse("approved").unwrap_err().to_string();
        assert!(err.contains("pending, executing"), "{err}");
    }
}
