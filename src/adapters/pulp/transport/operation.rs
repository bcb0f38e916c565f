//! The label of a request to Pulp in the metrics: its method and API route template.

/// A Pulp request's operation label: its method and API path with ids and numbers replaced
/// (`GET repositories/rpm/rpm/{id}/versions/{n}/`), so the label set stays bounded.
pub fn pulp_operation(method: &str, url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let path = path.split_once("://").map_or(path, |(_, rest)| {
        rest.split_once('/').map_or("", |(_, p)| p)
    });
    let path = path.split_once("api/v3/").map_or(path, |(_, rest)| rest);
    let template: Vec<&str> = path
        .split('/')
        .map(|segment| match segment {
            s if uuid::Uuid::parse_str(s).is_ok() => "{id}",
            s if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => "{n}",
            s => s,
        })
        .collect();
    format!("{method} {}", template.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pulp_operation_names_its_route_not_its_ids() {
        let url = "http://pulp:8080/pulp/api/v3/repositories/rpm/rpm/0199a1b2-0000-7000-8000-00000000000a/versions/12/?fields=x";
        assert_eq!(
            pulp_operation("GET", url),
            "GET repositories/rpm/rpm/{id}/versions/{n}/"
        );
        assert_eq!(
            pulp_operation("POST", "https://p/pulp/api/v3/publications/rpm/rpm/"),
            "POST publications/rpm/rpm/"
        );
    }
}
