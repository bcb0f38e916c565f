//! What clients will really verify: warnings about settings that make dnf refuse a
//! repository, shown on the versions page and in the deploy step.

use maud::{html, Markup};

use crate::domain::repository::RepoVerification;

/// The warnings that hold for these settings (nothing when clients will be fine).
pub fn client_warnings(v: &RepoVerification) -> Markup {
    html! {
        @if v.unsigned_metadata() {
            div.notice.warn data-warning="unsigned-metadata" role="alert" {
                strong { "Clients will refuse this repository: " }
                "repo_gpgcheck is on, but no metadata signing service is set, so its publications "
                "have no " code { "repomd.xml.asc" } " and every dnf client fails with a "
                "repomd.xml signature error. Set the repository's " code { "metadata_signing_service" }
                " in Pulp (then publish again), or turn " code { "repo_gpgcheck" } " off in its "
                code { "repo_config" } " where the policy allows unsigned metadata ("
                code { "[verification] unsigned_metadata = \"allow\"" } ")."
            }
        }
    }
}
