//! Who sends a request (the `OperatorIdentity` port): a fixed operator (the default), the
//! authenticating proxy's headers, or an API bearer token.

pub mod bearer;
pub mod fixed;
pub mod proxy_header;
