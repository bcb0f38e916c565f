//! Reading Pulp's limit/offset lists whole (pages fetched concurrently), and building
//! query strings.

use std::sync::atomic::{AtomicU64, Ordering};

use futures::stream::{self, StreamExt, TryStreamExt};
use serde::de::DeserializeOwned;

use crate::adapters::pulp::dto::PageDto;
use crate::adapters::pulp::PulpClient;
use crate::ports::UpstreamError;

/// A safety stop for a list too long to be read whole.
const MAX_PAGES: u64 = 10_000;

/// Pages of one list fetched at once, at most (so a long list does not flood Pulp).
const CONCURRENT_PAGES: usize = 8;

impl PulpClient {
    /// Every item of a list. The first page says how long the list is (`count`); the other
    /// pages are then fetched by offset, [`CONCURRENT_PAGES`] at a time, in order: a list of
    /// N pages costs about N / 8 round trips instead of N.
    /// `path` is a path relative to the API (`distributions/rpm/rpm/?…`) or an href.
    pub(crate) async fn get_all<T: DeserializeOwned>(
        &self,
        path: &str,
    ) -> Result<Vec<T>, UpstreamError> {
        self.get_all_by(path, self.settings.page_size).await
    }

    /// Like [`Self::get_all`], reading `page_size` items per request.
    pub(crate) async fn get_all_by<T: DeserializeOwned>(
        &self,
        path: &str,
        page_size: u64,
    ) -> Result<Vec<T>, UpstreamError> {
        self.get_all_paced(path, page_size, CONCURRENT_PAGES).await
    }

    /// Like [`Self::get_all_by`], with at most `in_flight` pages requested at once.
    pub(crate) async fn get_all_paced<T: DeserializeOwned>(
        &self,
        path: &str,
        page_size: u64,
        in_flight: usize,
    ) -> Result<Vec<T>, UpstreamError> {
        let limit = page_size.max(1);
        let base = self.url_for(path)?;
        let page_url = |offset: u64| page_at(&base, limit, offset);
        let first: PageDto<T> = self.get_json(&page_url(0)).await?;
        let mut items = first.results;
        if first.next.is_none() || items.is_empty() {
            return Ok(items);
        }
        let pages = pages_of(path, first.count, limit)?;
        let rest = self.pages_at((1..pages).map(|page| page_url(page * limit)), in_flight);
        items.extend(rest.await?.into_iter().flat_map(|page| page.results));
        Ok(items)
    }

    /// Like [`Self::get_all_by`], in one round when the list's length is known from the
    /// last read (`length`, updated here): every page it had is asked for at once (a page
    /// past the end comes back empty); only pages the list grew by since are read after.
    pub(crate) async fn get_all_remembering<T: DeserializeOwned>(
        &self,
        path: &str,
        page_size: u64,
        length: &AtomicU64,
    ) -> Result<Vec<T>, UpstreamError> {
        let limit = page_size.max(1);
        let base = self.url_for(path)?;
        let page_url = |offset: u64| page_at(&base, limit, offset);
        let guessed = pages_of(path, length.load(Ordering::Relaxed), limit)?.max(1);
        let mut read: Vec<PageDto<T>> = self
            .pages_at(
                (0..guessed).map(|page| page_url(page * limit)),
                CONCURRENT_PAGES,
            )
            .await?;
        let count = read.iter().map(|page| page.count).max().unwrap_or(0);
        length.store(count, Ordering::Relaxed);
        let pages = pages_of(path, count, limit)?;
        if pages > guessed {
            read.extend(
                self.pages_at(
                    (guessed..pages).map(|page| page_url(page * limit)),
                    CONCURRENT_PAGES,
                )
                .await?,
            );
        }
        Ok(read.into_iter().flat_map(|page| page.results).collect())
    }

    /// These pages (their URLs), `in_flight` at a time, in order.
    async fn pages_at<T: DeserializeOwned>(
        &self,
        urls: impl Iterator<Item = String>,
        in_flight: usize,
    ) -> Result<Vec<PageDto<T>>, UpstreamError> {
        stream::iter(urls)
            .map(|url| async move { self.get_json::<PageDto<T>>(&url).await })
            .buffered(in_flight.max(1))
            .try_collect()
            .await
    }
}

/// The page of `limit` items from `offset` of the list at `base`.
fn page_at(base: &str, limit: u64, offset: u64) -> String {
    with_query(
        base,
        &[
            ("limit", &limit.to_string()),
            ("offset", &offset.to_string()),
        ],
    )
}

/// The pages of a list of `count` items, `limit` a page (an error past [`MAX_PAGES`]).
fn pages_of(path: &str, count: u64, limit: u64) -> Result<u64, UpstreamError> {
    let pages = count.div_ceil(limit);
    if pages > MAX_PAGES {
        return Err(UpstreamError::BadResponse(format!(
            "the list at {path} has {count} items: more than {MAX_PAGES} pages"
        ))
        .logged());
    }
    Ok(pages)
}

/// The path and query of a `next` link. Pulp makes them absolute with the host it was
/// asked by, which may not be the address the console must use (a proxy, a container).
pub(crate) fn next_path(next: &str) -> String {
    let after_scheme = next.split_once("://").map(|(_, rest)| rest);
    match after_scheme {
        Some(rest) => match rest.find('/') {
            Some(slash) => rest[slash..].to_owned(),
            None => "/".to_owned(),
        },
        None => next.to_owned(),
    }
}

/// Appends query parameters (values percent-encoded) to a URL that may already have some.
pub(crate) fn with_query(url: &str, params: &[(&str, &str)]) -> String {
    let mut out = url.to_owned();
    for (name, value) in params {
        out.push(if out.contains('?') { '&' } else { '?' });
        out.push_str(name);
        out.push('=');
        out.push_str(&encode(value));
    }
    out
}

/// Percent-encodes a query value, keeping what Pulp's hrefs and prns use verbatim.
pub(crate) fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'/'
            | b':'
            | b',' => out.push(char::from(byte)),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_absolute_next_link_keeps_only_its_path_and_query() {
        assert_eq!(
            next_path("http://127.0.0.1:24817/pulp/api/v3/repositories/rpm/rpm/01a2/versions/?limit=2&offset=2"),
            "/pulp/api/v3/repositories/rpm/rpm/01a2/versions/?limit=2&offset=2"
        );
        assert_eq!(
            next_path("https://pulp.internal/pulp/api/v3/tasks/?offset=100"),
            "/pulp/api/v3/tasks/?offset=100"
        );
        assert_eq!(next_path("http://host"), "/");
    }

    #[test]
    fn a_relative_next_link_is_kept_as_is() {
        assert_eq!(
            next_path("/pulp/api/v3/tasks/?offset=2"),
            "/pulp/api/v3/tasks/?offset=2"
        );
    }

    #[test]
    fn query_values_are_encoded_and_appended() {
        assert_eq!(
            with_query("http://h/x/", &[("limit", "2")]),
            "http://h/x/?limit=2"
        );
        assert_eq!(
            with_query(
                "http://h/x/?fields=a,b",
                &[("repository", "/pulp/api/v3/r/1/"), ("q", "name=\"a b\"")]
            ),
            "http://h/x/?fields=a,b&repository=/pulp/api/v3/r/1/&q=name%3D%22a%20b%22"
        );
        assert_eq!(
            encode("prn:rpm.rpmrepository:01a2&x"),
            "prn:rpm.rpmrepository:01a2%26x"
        );
        assert_eq!(encode("é"), "%C3%A9");
    }
}

#[cfg(test)]
#[path = "pagination_tests.rs"]
mod listing_tests;
