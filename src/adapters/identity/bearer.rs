//! `BearerTokens`: who calls the JSON API. A request with `Authorization: Bearer <token>` is
//! the token's name (and groups) when the token's SHA-256 is one of the configured digests
//! (the plain token is never stored; digests are compared in constant time, all of them);
//! otherwise the trusted proxy's identity, when the console has one. The fixed placeholder
//! identity never vouches for an API caller.

use std::sync::Arc;

use async_trait::async_trait;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::domain::Operator;
use crate::ports::{IdentityContext, OperatorIdentity, Unidentified};

/// One API token: its name (the operator in the audit and the policy), the SHA-256 of the
/// token, and its groups.
#[derive(Clone)]
pub struct ApiToken {
    pub operator: Operator,
    pub sha256: [u8; 32],
}

impl std::fmt::Debug for ApiToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiToken")
            .field("operator", &self.operator)
            .finish_non_exhaustive()
    }
}

/// Why a configured digest is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a SHA-256 digest: write 64 hexadecimal digits (sha256sum of the token)")]
pub struct InvalidDigest(pub String);

impl ApiToken {
    pub fn new(operator: Operator, sha256_hex: &str) -> Result<Self, InvalidDigest> {
        let invalid = || InvalidDigest(sha256_hex.to_owned());
        let hex = sha256_hex.trim();
        // Hex digits only before slicing by byte pairs (a multibyte character would panic).
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid());
        }
        let mut sha256 = [0u8; 32];
        for (i, byte) in sha256.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|_| invalid())?;
        }
        Ok(Self { operator, sha256 })
    }
}

pub struct BearerTokens {
    tokens: Vec<ApiToken>,
    /// Who a request without a bearer token is (the trusted proxy's header), if anyone.
    otherwise: Option<Arc<dyn OperatorIdentity>>,
}

impl BearerTokens {
    pub fn new(tokens: Vec<ApiToken>, otherwise: Option<Arc<dyn OperatorIdentity>>) -> Self {
        Self { tokens, otherwise }
    }

    /// The token whose digest `presented` hashes to; every digest is compared.
    fn holder(&self, presented: &str) -> Option<&ApiToken> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for token in &self.tokens {
            if bool::from(token.sha256.ct_eq(&digest)) {
                found = Some(token);
            }
        }
        found
    }
}

#[async_trait]
impl OperatorIdentity for BearerTokens {
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified> {
        let bearer = context.header_values("authorization").find_map(|value| {
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
        match (bearer, &self.otherwise) {
            (Some(token), _) => self
                .holder(token)
                .map(|t| t.operator.clone())
                .ok_or(Unidentified::BadToken),
            (None, Some(proxy)) => proxy.identify(context).await,
            (None, None) => Err(Unidentified::NoToken),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sha256("s3cret-token")
    const DIGEST: &str = "4b0a2d3f3a3a0b5f1c5b1c1b7c5b1a36a8a0b8a1b0b0a7e3f6f1a0b1c2d3e4f5";

    fn context(authorization: &str) -> IdentityContext {
        IdentityContext {
            peer: None,
            headers: vec![("authorization".into(), authorization.into())],
        }
    }

    fn tokens() -> BearerTokens {
        let hex: String = Sha256::digest(b"s3cret-token")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let ci = Operator::new("ci-pipeline")
            .unwrap()
            .with_groups(vec!["release".into()]);
        BearerTokens::new(vec![ApiToken::new(ci, &hex).unwrap()], None)
    }

    #[tokio::test]
    async fn a_configured_token_is_its_name_and_groups() {
        let caller = tokens()
            .identify(&context("Bearer s3cret-token"))
            .await
            .unwrap();
        assert_eq!(caller.as_str(), "ci-pipeline");
        assert_eq!(caller.groups(), ["release".to_owned()]);
        let lower = tokens().identify(&context("bearer s3cret-token")).await;
        assert!(lower.is_ok(), "the scheme is case-insensitive");
    }

    #[tokio::test]
    async fn another_token_or_none_is_refused() {
        let wrong = tokens().identify(&context("Bearer s3cret-tokeN")).await;
        assert_eq!(wrong, Err(Unidentified::BadToken));
        let basic = tokens().identify(&context("Basic czNjcmV0")).await;
        assert_eq!(basic, Err(Unidentified::NoToken));
        let none = tokens().identify(&IdentityContext::default()).await;
        assert_eq!(none, Err(Unidentified::NoToken));
    }

    #[test]
    fn a_digest_is_64_hex_digits() {
        let op = Operator::new("x").unwrap();
        assert!(ApiToken::new(op.clone(), DIGEST).is_ok());
        for bad in ["", "abc", &"g".repeat(64), &"a".repeat(63)] {
            assert!(ApiToken::new(op.clone(), bad).is_err(), "{bad:?}");
        }
    }
}
