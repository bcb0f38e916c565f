//! The addresses of a comparison: its pages and its downloads, with the filter they keep.

use url::form_urlencoded::Serializer;

use crate::domain::diff::PackageFilter;
use crate::domain::repository::{RepoId, VersionNumber};

use crate::adapters::web::download::Format;

/// The address of the comparison of `to` against `from`, at `page` (1-based).
pub fn compare_href(id: &RepoId, to: VersionNumber, from: VersionNumber, page: usize) -> String {
    filtered_href(id, to, from, &PackageFilter::default(), page)
}

/// [`compare_href`] showing only the changes `filter` lets through.
pub fn filtered_href(
    id: &RepoId,
    to: VersionNumber,
    from: VersionNumber,
    filter: &PackageFilter,
    page: usize,
) -> String {
    let page = (page > 1).then(|| page.to_string());
    format!(
        "/repos/{id}/versions/{}/changes?{}",
        to.get(),
        query(from, filter, page.as_deref())
    )
}

/// The address of the whole comparison (the changes `filter` lets through) as `format`.
pub fn download_href(
    id: &RepoId,
    to: VersionNumber,
    from: VersionNumber,
    filter: &PackageFilter,
    format: Format,
) -> String {
    format!(
        "/repos/{id}/versions/{}/changes.{}?{}",
        to.get(),
        format.extension(),
        query(from, filter, None)
    )
}

/// `against=M[&kind=K][&name=S][&page=P]`, each value encoded.
fn query(from: VersionNumber, filter: &PackageFilter, page: Option<&str>) -> String {
    let mut query = Serializer::new(String::new());
    query.append_pair("against", &from.get().to_string());
    if let Some(kind) = filter.kind() {
        query.append_pair("kind", kind.as_str());
    }
    if let Some(name) = filter.name() {
        query.append_pair("name", name);
    }
    if let Some(page) = page {
        query.append_pair("page", page);
    }
    query.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::diff::ChangeKind;

    fn id() -> RepoId {
        RepoId::parse("0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b").unwrap()
    }

    #[test]
    fn an_unfiltered_first_page_is_the_plain_address() {
        let (to, from) = (VersionNumber::new(5), VersionNumber::new(2));
        assert_eq!(
            compare_href(&id(), to, from, 1),
            format!("/repos/{}/versions/5/changes?against=2", id())
        );
        assert!(compare_href(&id(), to, from, 3).ends_with("?against=2&page=3"));
    }

    #[test]
    fn pages_and_downloads_keep_the_filter_encoded() {
        let (to, from) = (VersionNumber::new(5), VersionNumber::new(2));
        let filter = PackageFilter::new(Some(ChangeKind::Added), Some("a&b c"));
        assert!(filtered_href(&id(), to, from, &filter, 2)
            .ends_with("/changes?against=2&kind=added&name=a%26b+c&page=2"));
        assert!(download_href(&id(), to, from, &filter, Format::Csv)
            .ends_with("/versions/5/changes.csv?against=2&kind=added&name=a%26b+c"));
    }
}
