//! What the compare page and its downloads are asked: which version against which, which
//! package changes (`kind`, `name`), which page; read into domain values or a clear 400/404.

use serde::Deserialize;

use crate::domain::diff::{parse_kind, PackageFilter};
use crate::domain::repository::{RepoId, VersionNumber};

use super::super::errors::WebError;
use super::super::extract::version_number;

/// The query string, as sent.
#[derive(Deserialize)]
pub struct CompareQuery {
    against: Option<String>,
    page: Option<String>,
    kind: Option<String>,
    name: Option<String>,
}

/// The query, read.
pub struct CompareRequest {
    pub id: RepoId,
    pub from: VersionNumber,
    pub to: VersionNumber,
    pub filter: PackageFilter,
    /// 1-based; the page clamps it to the pages there are.
    pub page: usize,
}

impl CompareQuery {
    /// Reads the query of the comparison of version `n` of repository `uuid`.
    pub fn read(self, uuid: &str, n: &str) -> Result<CompareRequest, WebError> {
        let id = RepoId::parse(uuid).map_err(|e| WebError::NotFound(e.to_string()))?;
        let to = number(Some(n), "version")?;
        let from = number(self.against.as_deref(), "against")?;
        let page = match self.page.as_deref().map(str::trim) {
            None | Some("") => 1,
            Some(raw) => raw.parse().map_err(|_| {
                WebError::BadRequest("'page' must be a page number such as 2.".into())
            })?,
        };
        let kind =
            parse_kind(self.kind.as_deref()).map_err(|e| WebError::BadRequest(e.to_string()))?;
        Ok(CompareRequest {
            id,
            from,
            to,
            filter: PackageFilter::new(kind, self.name.as_deref()),
            page,
        })
    }
}

fn number(raw: Option<&str>, what: &str) -> Result<VersionNumber, WebError> {
    let missing =
        format!("Which version to compare against is missing: add ?{what}=N (a version number).");
    version_number(raw, Some(what), &missing)
}
