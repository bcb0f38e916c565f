//! The console's navigation, in the header of every page: its sections (Repositories,
//! Releases, Requests with the count waiting for the viewer, Schedules, Exposure, Edges, Insights) and the
//! API reference and metrics. The section of the page shown is marked `aria-current`:
//! `page` on the section's own page, `true` on a page inside it (a repository's versions
//! are inside Repositories). It wraps onto more lines on a narrow screen, never wider than it.

use maud::{html, Markup};

use super::super::nav::{current_place, Place};

/// One link of the navigation.
struct Section {
    /// The `data-nav-link` hook.
    key: &'static str,
    label: &'static str,
    href: &'static str,
    /// The paths of the pages inside the section, other than `href` itself.
    inside: &'static [&'static str],
}

const SECTIONS: [Section; 9] = [
    Section {
        key: "repositories",
        label: "Repositories",
        href: "/",
        inside: &["/repos/"],
    },
    Section {
        key: "releases",
        label: "Releases",
        href: "/releases",
        inside: &["/releases/"],
    },
    Section {
        key: "requests",
        label: "Requests",
        href: "/requests",
        inside: &["/requests/"],
    },
    Section {
        key: "schedules",
        label: "Schedules",
        href: "/schedules",
        inside: &["/schedules/"],
    },
    Section {
        key: "exposure",
        label: "Exposure",
        href: "/exposure",
        inside: &[],
    },
    Section {
        key: "edges",
        label: "Edges",
        href: "/edges",
        inside: &[],
    },
    Section {
        key: "insights",
        label: "Insights",
        href: "/insights",
        inside: &["/insights/"],
    },
    Section {
        key: "api",
        label: "API reference",
        href: "/api/docs",
        inside: &[],
    },
    Section {
        key: "metrics",
        label: "Metrics",
        href: "/metrics",
        inside: &[],
    },
];

/// The navigation of the request being answered.
pub fn site_nav() -> Markup {
    nav_at(&current_place())
}

/// The navigation as seen from `place`.
fn nav_at(place: &Place) -> Markup {
    html! {
        nav.site-nav id="site-nav" aria-label="Console" data-nav {
            ul {
                @for section in &SECTIONS {
                    li {
                        a href=(section.href) data-nav-link=(section.key) aria-current=[current(section, &place.path)] {
                            (section.label)
                            @if section.key == "requests" { (waiting(place.waiting)) }
                        }
                    }
                }
            }
        }
    }
}

/// `page` on the section's page, `true` inside it, nothing elsewhere.
fn current(section: &Section, path: &str) -> Option<&'static str> {
    if path == section.href {
        Some("page")
    } else if section.inside.iter().any(|prefix| path.starts_with(prefix)) {
        Some("true")
    } else {
        None
    }
}

/// The count of requests waiting for the viewer, read as "Requests, 2 waiting for you".
fn waiting(count: Option<usize>) -> Markup {
    html! {
        @if let Some(count) = count.filter(|c| *c > 0) {
            " " span.nav-count data-waiting=(count) aria-hidden="true" { (count) }
            span.sr-only { ", " (count) " waiting for you" }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(path: &str) -> Vec<(String, String)> {
        let html = nav_at(&Place {
            path: path.into(),
            waiting: None,
        })
        .into_string();
        let document = scraper::Html::parse_fragment(&html);
        let selector = scraper::Selector::parse("a[aria-current]").unwrap();
        document
            .select(&selector)
            .map(|a| {
                let key = a.attr("data-nav-link").unwrap().to_owned();
                (key, a.attr("aria-current").unwrap().to_owned())
            })
            .collect()
    }

    #[test]
    fn the_section_of_the_page_is_marked_and_no_other() {
        let pair = |k: &str, v: &str| vec![(k.to_owned(), v.to_owned())];
        assert_eq!(marked("/"), pair("repositories", "page"));
        assert_eq!(marked("/repos/abc/versions"), pair("repositories", "true"));
        assert_eq!(marked("/releases"), pair("releases", "page"));
        assert_eq!(marked("/releases/platform"), pair("releases", "true"));
        assert_eq!(marked("/requests/r-1"), pair("requests", "true"));
        assert_eq!(marked("/exposure"), pair("exposure", "page"));
        assert_eq!(marked("/api/docs"), pair("api", "page"));
        assert_eq!(marked("/metrics"), pair("metrics", "page"));
        assert!(marked("/nowhere").is_empty());
    }

    #[test]
    fn the_count_shows_only_when_someone_waits() {
        let at = |waiting| {
            nav_at(&Place {
                path: "/".into(),
                waiting,
            })
            .into_string()
        };
        assert!(at(Some(2)).contains(r#"data-waiting="2""#));
        assert!(at(Some(2)).contains("2 waiting for you"));
        assert!(!at(Some(0)).contains("data-waiting"));
        assert!(!at(None).contains("data-waiting"));
    }
}
