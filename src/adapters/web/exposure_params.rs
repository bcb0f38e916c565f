//! The exposure question as the page's form, its CSV link and the JSON API send it:
//! `package` (with `arch`, `below`), `advisory` or `cve`, and `affected=1` to list affected
//! cells only. Shared by the three, so that one query string means the same everywhere.

use serde::Deserialize;
use utoipa::IntoParams;

use crate::domain::exposure::{BadExposureQuery, ExposureQuery, RawQuery};

/// The question's parameters, each as typed (blank is absent).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExposureParams {
    /// A package name: which builds each environment serves.
    pub package: Option<String>,
    /// With `package`: only this arch (e.g. `x86_64`).
    pub arch: Option<String>,
    /// With `package`: judge against `[epoch:]version[-release]` (affected where older).
    pub below: Option<String>,
    /// An advisory id (e.g. `RHSA-2026:1234`).
    pub advisory: Option<String>,
    /// A CVE id (e.g. `CVE-2026-1234`): every advisory whose references name it.
    pub cve: Option<String>,
    /// `1`: list the affected cells only (the counts still count every cell).
    pub affected: Option<String>,
}

impl ExposureParams {
    /// The question asked; `None` when nothing is asked (the empty form).
    pub fn query(&self) -> Result<Option<ExposureQuery>, BadExposureQuery> {
        ExposureQuery::parse(&RawQuery {
            package: self.package.as_deref(),
            arch: self.arch.as_deref(),
            below: self.below.as_deref(),
            advisory: self.advisory.as_deref(),
            cve: self.cve.as_deref(),
        })
    }

    /// Only affected cells are listed.
    pub fn affected_only(&self) -> bool {
        matches!(self.affected.as_deref(), Some("1" | "true" | "on"))
    }
}

/// The query string of `query` (and `affected=1`), encoded, for links.
pub fn query_string(query: &ExposureQuery, affected_only: bool) -> String {
    let mut pairs = url::form_urlencoded::Serializer::new(String::new());
    for (name, value) in query.pairs() {
        pairs.append_pair(name, &value);
    }
    if affected_only {
        pairs.append_pair("affected", "1");
    }
    pairs.finish()
}
