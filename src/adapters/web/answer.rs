//! The typed answers of the handlers, so that no handler names a status or builds a response
//! by hand: a page or fragment shown, a request recorded, a redirect, or markup (or JSON)
//! answered with the status of what happened, which [`super::status`] decides.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Json;
use maud::Markup;
use serde::Serialize;

use crate::ports::UpstreamError;

use super::status::{self, HttpStatus};

/// The status of something that happened (a failure, or a use case's outcome), as
/// [`super::status`] gives it; made only from that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusOf(StatusCode);

impl StatusOf {
    pub fn of(what: &impl HttpStatus) -> Self {
        Self(what.status())
    }

    /// The number, for pages and scripts that tell answers apart (`data-answer="409"`).
    pub fn code(self) -> u16 {
        self.0.as_u16()
    }

    pub fn is_success(self) -> bool {
        self.0.is_success()
    }
}

/// What a page handler answers.
pub enum Answer {
    /// A page or fragment (200).
    Shown(Markup),
    /// A request recorded, this fragment saying so (202).
    Recorded(Markup),
    /// Go to this page (303).
    SeeOther(String),
    /// This markup, with the status of what it says.
    As(StatusOf, Markup),
}

impl Answer {
    /// `markup`, answered with the status of `what` (a failure, or an outcome).
    pub fn as_of(what: &impl HttpStatus, markup: Markup) -> Self {
        Self::As(StatusOf::of(what), markup)
    }

    /// A page, by the rule every page and fragment follows: the status of its main read's
    /// failure (the page is still rendered, saying what failed and the way back), 200 when
    /// the main read succeeded, even if a secondary read failed (the page then shows a
    /// notice for it).
    pub fn page(main_read: Option<&UpstreamError>, markup: Markup) -> Self {
        match main_read {
            Some(error) => Self::as_of(error, markup),
            None => Self::Shown(markup),
        }
    }
}

impl IntoResponse for Answer {
    fn into_response(self) -> Response {
        match self {
            Self::Shown(markup) => (status::SHOWN, markup).into_response(),
            Self::Recorded(markup) => (status::RECORDED, markup).into_response(),
            Self::SeeOther(to) => Redirect::to(&to).into_response(),
            Self::As(StatusOf(status), markup) => (status, markup).into_response(),
        }
    }
}

/// What an API handler answers.
pub enum JsonAnswer<T> {
    /// Done (200).
    Done(T),
    /// A record made (201).
    Created(T),
    /// A request recorded (202).
    Recorded(T),
    /// This body, with the status of what it says.
    As(StatusOf, T),
}

impl<T: Serialize> IntoResponse for JsonAnswer<T> {
    fn into_response(self) -> Response {
        match self {
            Self::Done(body) => (status::SHOWN, Json(body)).into_response(),
            Self::Created(body) => (status::CREATED, Json(body)).into_response(),
            Self::Recorded(body) => (status::RECORDED, Json(body)).into_response(),
            Self::As(StatusOf(status), body) => (status, Json(body)).into_response(),
        }
    }
}

/// What `/readyz` answers: ready, ready with what needs an operator's attention (records
/// that cannot be read: the console serves and deploys, but those are not run), or not
/// ready saying which part is down and why.
pub enum Readiness {
    Ready,
    Attention(String),
    NotReady(String),
    /// One of the others, and a line below it (the edges, which never change the status).
    Noted(Box<Readiness>, String),
}

impl Readiness {
    /// The same readiness, with `line` below it.
    pub fn noting(self, line: String) -> Self {
        Self::Noted(Box::new(self), line)
    }

    fn status_and_text(self) -> (axum::http::StatusCode, String) {
        match self {
            Self::Ready => (status::SHOWN, "ready\n".to_owned()),
            Self::Attention(what) => (status::SHOWN, format!("ready; attention: {what}\n")),
            Self::NotReady(down) => (status::NOT_READY, format!("not ready: {down}\n")),
            Self::Noted(inner, line) => {
                let (status, text) = inner.status_and_text();
                (status, format!("{text}{line}\n"))
            }
        }
    }
}

impl IntoResponse for Readiness {
    fn into_response(self) -> Response {
        self.status_and_text().into_response()
    }
}
