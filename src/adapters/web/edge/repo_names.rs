//! Repository pages by name: `GET /repos/<name>/...` redirects (307) to the repository's UUID
//! URL, so that an operator may type `/repos/rhel9-baseos/versions`. A UUID-shaped segment is
//! always an identifier (never looked up as a name); a name upstream does not have is a 404
//! saying so.

use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;
use crate::domain::repository::RepoId;

use crate::adapters::web::errors::WebError;

/// The name segment of `/repos/<name>/<rest>` when it is not a UUID, with what follows it.
fn named(path: &str) -> Option<(&str, &str)> {
    let after = path.strip_prefix("/repos/")?;
    let (segment, rest) = after.split_once('/')?;
    (!segment.is_empty() && RepoId::parse(segment).is_err()).then_some((segment, rest))
}

/// Middleware: redirects a page asked by repository name to its UUID URL.
pub async fn redirect_names(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    let Some((name, rest)) = named(request.uri().path()) else {
        return next.run(request).await;
    };
    if request.method() != Method::GET {
        let message = "Repositories are named by their UUID here; open the page by name first.";
        return WebError::NotFound(message.into()).into_response();
    }
    let name = decoded(name);
    match state.reads.repo_named(&name).await {
        Ok(Some(repo)) => {
            let query = request.uri().query().map_or(String::new(), |q| format!("?{q}"));
            let target = format!("/repos/{}/{rest}{query}", repo.id.as_str());
            (StatusCode::TEMPORARY_REDIRECT, [(header::LOCATION, target)]).into_response()
        }
        Ok(None) => WebError::NotFound(format!(
            "Pulp has no RPM repository named \u{201c}{name}\u{201d} (a repository is named by its name or its UUID)."
        ))
        .into_response(),
        Err(error) => WebError::said(
            &error,
            format!("Cannot look up the repository named \u{201c}{name}\u{201d}: {error}"),
        )
        .into_response(),
    }
}

/// The segment as written before percent-encoding (a name with a space is sent as `%20`).
fn decoded(segment: &str) -> String {
    let plus_kept = segment.replace('+', "%2B");
    url::form_urlencoded::parse(format!("n={plus_kept}").as_bytes())
        .next()
        .map_or_else(|| segment.to_owned(), |(_, value)| value.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_segment_is_taken_a_uuid_segment_is_left_alone() {
        assert_eq!(
            named("/repos/rhel9-baseos/versions"),
            Some(("rhel9-baseos", "versions"))
        );
        let uuid = "/repos/01a202de-e818-7629-a483-000000000000/versions";
        assert_eq!(named(uuid), None);
        assert_eq!(named("/requests/1"), None);
        assert_eq!(named("/repos//versions"), None);
    }

    #[test]
    fn a_percent_encoded_name_is_decoded() {
        assert_eq!(decoded("my%20repo"), "my repo");
        assert_eq!(decoded("rhel9-baseos"), "rhel9-baseos");
        assert_eq!(decoded("c++"), "c++");
    }
}
