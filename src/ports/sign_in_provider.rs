//! The sign-in provider port: an OpenID Connect provider, in the console's words. The
//! adapter (`adapters/identity/oidc`) speaks the protocol: the authorization request with
//! `state`, `nonce` and PKCE, the code redeemed at the token endpoint, the ID token's
//! signature, issuer, audience, expiry and nonce checked, and the claims read.

use async_trait::async_trait;

/// Where to send a browser to sign in, and what its answer must then match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthorizationRequest {
    /// The provider's authorization URL, with every parameter.
    pub url: String,
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
}

/// What the provider vouched for in a checked ID token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VouchedClaims {
    /// The token's subject (`sub`).
    pub subject: String,
    /// The username claim's text.
    pub username: String,
    /// The groups claim's texts (none when the claim is absent).
    pub groups: Vec<String>,
}

/// Why a provider's answer does not sign anyone in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignInRefused {
    /// The provider answered the browser with an error instead of a code.
    #[error("the identity provider refused the sign-in: {0}")]
    AtProvider(String),
    /// The token endpoint refused the code (e.g. one already used).
    #[error("the identity provider did not accept the sign-in's code: {0}")]
    CodeRefused(String),
    /// The ID token failed a check: signature, issuer, audience, expiry or nonce.
    #[error("the identity provider's ID token was refused: {0}")]
    BadIdToken(String),
    /// The ID token names nobody the console can use.
    #[error("the ID token has no usable '{claim}' claim (oidc.{key}): {reason}")]
    Claim {
        claim: String,
        key: &'static str,
        reason: String,
    },
    /// The provider could not be reached or answered something else than OAuth.
    #[error("the identity provider could not be asked: {0}")]
    Unreachable(String),
}

#[async_trait]
pub trait SignInProvider: Send + Sync {
    /// A new authorization request (fresh `state`, `nonce` and PKCE verifier).
    fn authorize(&self) -> AuthorizationRequest;

    /// Redeems `code` with `pkce_verifier` and checks the ID token, which must carry
    /// `nonce`.
    async fn redeem(
        &self,
        code: &str,
        pkce_verifier: &str,
        nonce: &str,
    ) -> Result<VouchedClaims, SignInRefused>;

    /// Where to send a browser that signed out so that the provider ends its own session
    /// too (RP-initiated logout), coming back to `after`; `None` when the provider offers
    /// none.
    fn sign_out_url(&self, after: &str) -> Option<String>;
}
