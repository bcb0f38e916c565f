//! `BearerTokens`: who calls the JSON API. A request with `Authorization: Bearer <token>` is
//! the token's name (and groups, scopes and owner) when the token's SHA-256 is one of the
//! configured digests (the plain token is never stored; digests are compared in constant
//! time, all of them) and it has not expired; otherwise the trusted proxy's identity, when
//! the console has one. The fixed placeholder identity never vouches for an API caller.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::domain::identity::{Operator, PersonName, Scope};
use crate::domain::policy::{TokenRoster, TokenStanding};
use crate::ports::{Clock, IdentityContext, OperatorIdentity, Unidentified};

/// One API token: who it is (its name, groups, scopes and owner, as an operator), the
/// SHA-256 of the token, and when it stops being accepted.
#[derive(Clone)]
pub struct ApiToken {
    pub operator: Operator,
    pub sha256: [u8; 32],
    pub expires: Option<DateTime<Utc>>,
}

impl std::fmt::Debug for ApiToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ApiToken")
            .field("operator", &self.operator)
            .field("expires", &self.expires)
            .finish_non_exhaustive()
    }
}

/// Why a configured digest is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a SHA-256 digest: write 64 hexadecimal digits (sha256sum of the token)")]
pub struct InvalidDigest(pub String);

impl ApiToken {
    /// The token of `name` (an operator with its groups) with digest `sha256_hex`, which
    /// may do what `scopes` say and nothing else.
    pub fn new(
        name: Operator,
        sha256_hex: &str,
        scopes: Vec<Scope>,
    ) -> Result<Self, InvalidDigest> {
        Ok(Self {
            operator: name.as_token(scopes, None),
            sha256: digest(sha256_hex)?,
            expires: None,
        })
    }

    /// The same token, owned by `owner` (the four-eyes rule compares owners).
    pub fn owned_by(mut self, owner: PersonName) -> Self {
        let scopes = self
            .operator
            .token()
            .map(|t| t.scopes.clone())
            .unwrap_or_default();
        self.operator = self.operator.as_token(scopes, Some(owner));
        self
    }

    /// The token as the authority of what it asked is judged at run time.
    pub fn standing(&self) -> TokenStanding {
        TokenStanding {
            operator: self.operator.clone(),
            expires: self.expires,
        }
    }

    /// The same token, refused from `at` on.
    pub fn expiring(mut self, at: DateTime<Utc>) -> Self {
        self.expires = Some(at);
        self
    }
}

/// 64 hexadecimal digits as 32 bytes (any other text, multibyte included, is refused).
fn digest(sha256_hex: &str) -> Result<[u8; 32], InvalidDigest> {
    let invalid = || InvalidDigest(sha256_hex.to_owned());
    let hex = sha256_hex.trim().as_bytes();
    if hex.len() != 64 || !hex.iter().all(u8::is_ascii_hexdigit) {
        return Err(invalid());
    }
    let mut sha256 = [0u8; 32];
    for (byte, pair) in sha256.iter_mut().zip(hex.chunks_exact(2)) {
        let pair = std::str::from_utf8(pair).map_err(|_| invalid())?;
        *byte = u8::from_str_radix(pair, 16).map_err(|_| invalid())?;
    }
    Ok(sha256)
}

pub struct BearerTokens {
    tokens: Vec<ApiToken>,
    /// Who a request without a bearer token is (the trusted proxy's header), if anyone.
    otherwise: Option<Arc<dyn OperatorIdentity>>,
    /// What time it is, for the tokens' expiry.
    clock: Arc<dyn Clock>,
}

impl BearerTokens {
    pub fn new(
        tokens: Vec<ApiToken>,
        otherwise: Option<Arc<dyn OperatorIdentity>>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self {
            tokens,
            otherwise,
            clock,
        }
    }

    /// The tokens as they stand, for the authority of what they asked at run time.
    pub fn roster(&self) -> TokenRoster {
        TokenRoster::new(self.tokens.iter().map(ApiToken::standing).collect())
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

    /// The holder of `presented`, while its token has not expired.
    async fn caller(&self, presented: &str) -> Result<Operator, Unidentified> {
        let token = self.holder(presented).ok_or(Unidentified::BadToken)?;
        if let Some(expires) = token.expires {
            if self.clock.now().await >= expires {
                return Err(Unidentified::ExpiredToken {
                    name: token.operator.as_str().to_owned(),
                    expired: expires.to_rfc3339_opts(SecondsFormat::Secs, true),
                });
            }
        }
        Ok(token.operator.clone())
    }
}

#[async_trait]
impl OperatorIdentity for BearerTokens {
    async fn identify(&self, context: &IdentityContext) -> Result<Operator, Unidentified> {
        let authorization = context
            .single_text("authorization")
            .map_err(|problem| Unidentified::header("Authorization", problem))?;
        let bearer = authorization.and_then(|value| {
            let (scheme, token) = value.trim().split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
        });
        match (bearer, &self.otherwise) {
            (Some(token), _) => self.caller(token).await,
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

    struct At(DateTime<Utc>);

    #[async_trait]
    impl Clock for At {
        async fn now(&self) -> DateTime<Utc> {
            self.0
        }
    }

    fn at(text: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(text).unwrap().into()
    }

    fn context(authorization: &str) -> IdentityContext {
        IdentityContext::default().with_header("authorization", authorization)
    }

    fn token() -> ApiToken {
        let hex: String = Sha256::digest(b"s3cret-token")
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let ci = Operator::new("ci-pipeline")
            .unwrap()
            .with_groups(vec!["release".into()]);
        ApiToken::new(ci, &hex, vec![Scope::Sync]).unwrap()
    }

    fn tokens_at(token: ApiToken, now: &str) -> BearerTokens {
        BearerTokens::new(vec![token], None, Arc::new(At(at(now))))
    }

    fn tokens() -> BearerTokens {
        tokens_at(token(), "2026-11-26T00:00:00Z")
    }

    #[tokio::test]
    async fn a_configured_token_is_its_name_groups_and_scopes() {
        let caller = tokens()
            .identify(&context("Bearer s3cret-token"))
            .await
            .unwrap();
        assert_eq!(caller.as_str(), "ci-pipeline");
        assert_eq!(caller.groups(), ["release".to_owned()]);
        assert!(caller.holds(&Scope::Sync).is_ok());
        let production = crate::domain::environment::EnvironmentName::production();
        assert!(caller.holds(&Scope::deploy_to(&production)).is_err());
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
        let twice = context("Bearer s3cret-token").with_header("authorization", "Bearer x");
        assert!(matches!(
            tokens().identify(&twice).await,
            Err(Unidentified::RepeatedHeader { .. })
        ));
    }

    #[tokio::test]
    async fn an_expired_token_is_refused_naming_it() {
        let expiring = token().expiring(at("2027-06-30T00:00:00Z"));
        let before = tokens_at(expiring.clone(), "2027-06-29T23:59:59Z");
        assert!(before
            .identify(&context("Bearer s3cret-token"))
            .await
            .is_ok());
        let after = tokens_at(expiring, "2027-06-30T00:00:00Z");
        let refused = after
            .identify(&context("Bearer s3cret-token"))
            .await
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the API token 'ci-pipeline' expired at 2027-06-30T00:00:00Z ([[api.tokens]] \
             expires in the console's configuration)"
        );
    }

    #[tokio::test]
    async fn an_owned_token_acts_as_its_owner() {
        let owned = token().owned_by(PersonName::new("Alice").unwrap());
        let caller = tokens_at(owned, "2026-11-26T00:00:00Z")
            .identify(&context("Bearer s3cret-token"))
            .await
            .unwrap();
        assert_eq!(caller.as_str(), "ci-pipeline");
        assert_eq!(caller.person(), Operator::new("alice").unwrap().person());
    }

    #[test]
    fn a_digest_is_64_hex_digits_and_nothing_else_panics() {
        let op = || Operator::new("x").unwrap();
        assert!(ApiToken::new(op(), DIGEST, vec![]).is_ok());
        let multibyte = format!("{}é", &DIGEST[..62]);
        let wide = "é".repeat(32);
        for bad in [
            "",
            "abc",
            &"g".repeat(64),
            &"a".repeat(63),
            &multibyte,
            &wide,
        ] {
            assert!(ApiToken::new(op(), bad, vec![]).is_err(), "{bad:?}");
        }
    }
}
