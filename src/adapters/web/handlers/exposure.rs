//! The exposure page and its CSV: parse the question, call the exposure use case, render.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};

use crate::app::exposure::exposure;
use crate::app::AppState;

use super::super::answer::Answer;
use super::super::download::exposure_csv;
use super::super::errors::WebError;
use super::super::exposure_params::ExposureParams;
use super::super::views::exposure::exposure_page;

/// GET /exposure[?package=…&arch=…&below=…|advisory=…|cve=…][&affected=1]: the form, and the
/// answer when a question is asked. A question that cannot be asked is a 400 showing the form
/// and what to write; a question Pulp cannot answer at all answers that failure's status.
pub async fn show(
    State(state): State<AppState>,
    query: Result<Query<ExposureParams>, QueryRejection>,
) -> Answer {
    let params = match query {
        Ok(Query(params)) => params,
        Err(rejection) => {
            let error = WebError::rejected(rejection);
            let page = exposure_page(&ExposureParams::default(), None, Some(&error.to_string()));
            return Answer::as_of(&error, page);
        }
    };
    let question = match params.query() {
        Ok(Some(question)) => question,
        Ok(None) => return Answer::Shown(exposure_page(&params, None, None)),
        Err(bad) => return Answer::as_of(&bad, exposure_page(&params, None, Some(&bad.0))),
    };
    match exposure(&state, &question).await {
        Ok(answer) => Answer::Shown(exposure_page(&params, Some(&answer), None)),
        Err(error) => Answer::as_of(
            &error,
            exposure_page(&params, None, Some(&error.to_string())),
        ),
    }
}

/// GET /exposure.csv with the page's question: `repository,environment,version,state,packages`.
pub async fn csv(
    State(state): State<AppState>,
    query: Result<Query<ExposureParams>, QueryRejection>,
) -> Response {
    let answered = async {
        let Query(params) = query.map_err(WebError::rejected)?;
        let question = params.query()?.ok_or_else(|| {
            WebError::BadRequest("Ask a question: package=, advisory= or cve=.".into())
        })?;
        let answer = exposure(&state, &question).await?;
        Ok::<_, WebError>((answer, params.affected_only()))
    };
    match answered.await {
        Ok((answer, affected_only)) => {
            let headers = [
                (CONTENT_TYPE, "text/csv; charset=utf-8"),
                (CONTENT_DISPOSITION, "attachment; filename=\"exposure.csv\""),
            ];
            (headers, exposure_csv(&answer, affected_only)).into_response()
        }
        Err(error) => error.into_plain_text(),
    }
}
