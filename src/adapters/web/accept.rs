//! What a client asks for in its `Accept` header, where one route answers a browser and a
//! program differently (`/metrics`: a page for a person, the exposition format for Prometheus).

use axum::http::{header, HeaderMap};

/// Whether the client prefers an HTML page: `text/html` is listed with a weight above that
/// of every text format a scraper asks for (`text/plain`, `application/openmetrics-text`).
/// No `Accept`, or `*/*` alone, is not a browser: programs keep their format.
pub fn prefers_html(headers: &HeaderMap) -> bool {
    let Some(accept) = headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let weight = |wanted: &str| {
        accept
            .split(',')
            .filter_map(|range| {
                let mut parts = range.split(';');
                let media = parts.next()?.trim();
                media.eq_ignore_ascii_case(wanted).then(|| {
                    parts
                        .filter_map(|p| p.trim().strip_prefix("q="))
                        .find_map(|q| q.trim().parse::<f32>().ok())
                        .unwrap_or(1.0)
                })
            })
            .fold(0.0_f32, f32::max)
    };
    let html = weight("text/html");
    html > 0.0 && html > weight("text/plain") && html > weight("application/openmetrics-text")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT, value.parse().unwrap());
        headers
    }

    #[test]
    fn a_browser_prefers_html() {
        let firefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assert!(prefers_html(&accept(firefox)));
        assert!(prefers_html(&accept("text/html")));
    }

    #[test]
    fn prometheus_and_programs_do_not() {
        let prometheus = "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.4,*/*;q=0.1";
        assert!(!prefers_html(&accept(prometheus)));
        assert!(!prefers_html(&accept("text/plain")));
        assert!(!prefers_html(&accept("*/*")));
        assert!(!prefers_html(&HeaderMap::new()));
        assert!(!prefers_html(&accept("text/html;q=0")));
        assert!(!prefers_html(&accept("text/plain, text/html;q=0.5")));
    }
}
