//! OpenID Connect sign-in: the provider (`provider.rs`, the [`SignInProvider`] port over the
//! `openidconnect` crate), the HTTP client it speaks through (`http.rs`), and the session
//! cookie as an [`OperatorIdentity`] (`session_cookie.rs`: who a request is, from the
//! session its cookie names).
//!
//! [`SignInProvider`]: crate::ports::sign_in_provider::SignInProvider
//! [`OperatorIdentity`]: crate::ports::OperatorIdentity

pub mod http;
pub mod provider;
pub mod session_cookie;
