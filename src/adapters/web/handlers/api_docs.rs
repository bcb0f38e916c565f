//! The API reference page (`/api/docs`): the OpenAPI document the API serves, rendered by
//! the console for a person.

use super::super::answer::Answer;
use super::super::api_document;
use super::super::views::api_reference::api_reference_page;

/// GET /api/docs.
pub async fn show() -> Answer {
    let doc = serde_json::to_value(api_document()).unwrap_or_default();
    Answer::Shown(api_reference_page(&doc))
}
