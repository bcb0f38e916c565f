//! Who sends a request (the `OperatorIdentity` port): a fixed operator (the default), the
//! authenticating proxy's headers, an API bearer token, or a session signed in with an
//! OpenID Connect provider (`oidc/`).

pub mod bearer;
pub mod fixed;
pub mod oidc;
pub mod proxy_header;
