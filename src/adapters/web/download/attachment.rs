//! The answer of a download: the streamed body of its format, its content type, and a file
//! name a browser saves it under.

use axum::body::Body;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::app::diffs::compare::Comparison;
use crate::domain::diff::PackageFilter;

use super::chunks;
use super::csv_body::CsvDocument;
use super::format::Format;
use super::json_body::JsonDocument;

/// Longest file name offered, extension included.
const NAME_MAX: usize = 100;

/// The whole comparison (the package changes `filter` lets through) as `format`, streamed.
pub fn attachment(c: &Comparison, filter: PackageFilter, format: Format) -> Response {
    let body: Body = match format {
        Format::Json => json_body(c, filter),
        Format::Csv => chunks::body(c.diff.clone(), filter, CsvDocument),
    };
    let name = file_name(c.repo.display_name(), c.from.get(), c.to.get(), format);
    let headers = [
        (CONTENT_TYPE, format.content_type().to_owned()),
        (
            CONTENT_DISPOSITION,
            format!("attachment; filename=\"{name}\""),
        ),
    ];
    (headers, body).into_response()
}

/// The whole comparison as one JSON document, streamed (the download's body, and the JSON
/// API's answer).
pub fn json_body(c: &Comparison, filter: PackageFilter) -> Body {
    let writer = JsonDocument {
        repository: c.repo.display_name().to_owned(),
        from: c.from.get(),
        to: c.to.get(),
    };
    chunks::body(c.diff.clone(), filter, writer)
}

/// `<repo>-v<from>-v<to>.<ext>`: the repository's name kept to ASCII letters, digits, `.`,
/// `_` and `-` (anything else becomes `_`; no leading dot), so that it is safe in the header
/// and as a file name on any system.
pub fn file_name(repo: &str, from: u64, to: u64, format: Format) -> String {
    let suffix = format!("-v{from}-v{to}.{}", format.extension());
    let safe: String = repo
        .chars()
        .map(|c| match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '_' | '-' => c,
            _ => '_',
        })
        .collect();
    let mut stem = safe.trim_start_matches('.').to_owned();
    stem.truncate(NAME_MAX.saturating_sub(suffix.len()));
    if stem.is_empty() {
        stem = "repository".to_owned();
    }
    format!("{stem}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_name_says_which_versions_and_keeps_only_safe_characters() {
        assert_eq!(file_name("acme", 2, 5, Format::Csv), "acme-v2-v5.csv");
        assert_eq!(
            file_name("a\"b/..\\c d\r\nü", 0, 1, Format::Json),
            "a_b_.._c_d___-v0-v1.json"
        );
        assert_eq!(file_name("../x", 1, 2, Format::Csv), "_x-v1-v2.csv");
        assert_eq!(file_name("...", 1, 2, Format::Csv), "repository-v1-v2.csv");
        let long = file_name(&"n".repeat(500), 1, 2, Format::Json);
        assert_eq!(long.len(), NAME_MAX);
        assert!(long.ends_with("n-v1-v2.json"));
    }
}
