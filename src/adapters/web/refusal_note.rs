//! Why a request was refused, left in the response's extensions by the error that refused it
//! (a page's, the API's or the edge's), so that the request's one log line carries it (the
//! error itself logs nothing). Below every renderer: the edge's request log reads it.

/// Why a request was refused, in the words its answer says.
#[derive(Debug, Clone)]
pub struct Refusal(pub String);
