//! GET /repos/{uuid}/versions/{n}/changes.json and .csv?against=M[&kind=K][&name=S]: the
//! whole comparison (the package changes the filter lets through), streamed. A refusal is
//! plain text, with the status the compare page would answer.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::response::Response;

use crate::app::diffs::compare::compare;
use crate::app::AppState;

use super::super::download::{attachment, Format};
use super::super::errors::WebError;
use super::compare_query::CompareQuery;

type Asked = Result<Query<CompareQuery>, QueryRejection>;

pub async fn json(state: State<AppState>, path: Path<(String, String)>, query: Asked) -> Response {
    download(state, path, query, Format::Json).await
}

pub async fn csv(state: State<AppState>, path: Path<(String, String)>, query: Asked) -> Response {
    download(state, path, query, Format::Csv).await
}

async fn download(
    State(state): State<AppState>,
    Path((uuid, n)): Path<(String, String)>,
    query: Asked,
    format: Format,
) -> Response {
    let answer = async {
        let Query(query) = query.map_err(WebError::rejected)?;
        let asked = query.read(&uuid, &n)?;
        let comparison = compare(&state, &asked.id, asked.from, asked.to).await?;
        Ok::<_, WebError>(attachment(&comparison, asked.filter, format))
    };
    answer.await.unwrap_or_else(WebError::into_plain_text)
}
