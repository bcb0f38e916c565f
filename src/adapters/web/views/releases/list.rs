//! The list of releases (`/releases`): each configured release (`data-release-item`), a link
//! to its page, and its members in every environment (the set each one serves), or why they
//! could not be read; without any release, how to declare one.

use maud::{html, Markup};

use crate::app::releases::view::ReleaseView;
use crate::domain::release::Release;
use crate::ports::UpstreamError;

use super::page::members_table;
use crate::adapters::web::views::layout::{back_link, notice, page};

/// One release as read for the list: its page's facts, or why they are missing.
pub type ListedRelease = (Release, Result<ReleaseView, UpstreamError>);

/// The whole page.
pub fn releases_page(releases: &[ListedRelease]) -> Markup {
    page(
        "Releases",
        html! {
            div.title-row { (back_link()) h1 { "Releases" } }
            p.muted {
                "A release moves several repositories through the environments together: a promotion "
                "moves every member or none. Each table shows the set each environment serves."
            }
            @if releases.is_empty() {
                p.muted id="releases-empty" {
                    "No release is configured. Declare one in the console's configuration as "
                    code { "[releases.<name>]" } " with " code { "members = [\"repository\", …]" }
                    ", then restart the console."
                }
            }
            @for (release, view) in releases {
                section.release-item data-release-item=(release.name) aria-labelledby={ "release-" (release.name) } {
                    h2 id={ "release-" (release.name) } {
                        a href={ "/releases/" (release.name) } { "Release " bdi { (release.name) } }
                    }
                    @match view {
                        Ok(view) => (members_table(view)),
                        Err(error) => (notice("error", None, html! {
                            span data-release-unread=(release.name) {
                                "The members of " (release.name) " could not be read from Pulp: " (error)
                            }
                        })),
                    }
                }
            }
        },
    )
}
