//! `OidcProvider`: the [`SignInProvider`] port over OpenID Connect with the `openidconnect`
//! crate. Discovery once, at start (`discover`: the provider's endpoints and keys; the
//! issuer it states must be the configured one). Each sign-in: an authorization request
//! with a fresh `state`, `nonce` and PKCE S256 challenge; the code redeemed with the client
//! secret and the PKCE verifier; the ID token's signature (the provider's JWKS, fetched at
//! discovery), issuer, audience (this client, and `azp` when several), expiry and nonce
//! checked by the crate; then the username and groups claims read.

use std::collections::HashMap;
use std::time::Duration;

use async_trait::async_trait;
use openidconnect::core::{
    CoreAuthDisplay, CoreAuthPrompt, CoreAuthenticationFlow, CoreErrorResponseType,
    CoreGenderClaim, CoreJsonWebKey, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm,
    CoreRevocableToken, CoreRevocationErrorResponse, CoreTokenIntrospectionResponse, CoreTokenType,
};
use openidconnect::{
    AdditionalClaims, AuthorizationCode, Client, ClientId, ClientSecret, CsrfToken,
    EmptyExtraTokenFields, EndSessionUrl, EndpointMaybeSet, EndpointNotSet, EndpointSet,
    IdTokenClaims, IdTokenFields, IssuerUrl, LogoutRequest, Nonce, PkceCodeChallenge,
    PkceCodeVerifier, PostLogoutRedirectUrl, ProviderMetadataWithLogout, RedirectUrl,
    RequestTokenError, Scope, StandardErrorResponse, StandardTokenResponse, TokenResponse,
};
use serde::{Deserialize, Serialize};

use crate::ports::sign_in_provider::{
    AuthorizationRequest, SignInProvider, SignInRefused, VouchedClaims,
};

use super::http::ProviderHttp;

/// The claims of an ID token beyond the standard ones (the groups claim, and a username
/// claim of the provider's own).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct OtherClaims(HashMap<String, serde_json::Value>);

impl AdditionalClaims for OtherClaims {}

type Fields = IdTokenFields<
    OtherClaims,
    EmptyExtraTokenFields,
    CoreGenderClaim,
    CoreJweContentEncryptionAlgorithm,
    CoreJwsSigningAlgorithm,
>;

type OidcClient = Client<
    OtherClaims,
    CoreAuthDisplay,
    CoreGenderClaim,
    CoreJweContentEncryptionAlgorithm,
    CoreJsonWebKey,
    CoreAuthPrompt,
    StandardErrorResponse<CoreErrorResponseType>,
    StandardTokenResponse<Fields, CoreTokenType>,
    CoreTokenIntrospectionResponse,
    CoreRevocableToken,
    CoreRevocationErrorResponse,
    EndpointSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointNotSet,
    EndpointMaybeSet,
    EndpointMaybeSet,
>;

/// What the `[oidc]` table says, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidcSettings {
    pub issuer: String,
    pub client_id: String,
    pub client_secret: String,
    pub scopes: Vec<String>,
    pub username_claim: String,
    pub groups_claim: String,
    pub redirect_url: String,
}

/// Why discovery failed, naming the key to look at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {reason}")]
pub struct DiscoveryFailed {
    pub key: &'static str,
    pub reason: String,
}

pub struct OidcProvider {
    client: OidcClient,
    http: ProviderHttp,
    scopes: Vec<String>,
    username_claim: String,
    groups_claim: String,
    end_session: Option<EndSessionUrl>,
    client_id: String,
}

impl std::fmt::Debug for OidcProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcProvider")
            .field("client_id", &self.client_id)
            .finish_non_exhaustive()
    }
}

impl OidcProvider {
    /// Reads the provider's discovery document and keys (within `timeout` each).
    pub async fn discover(
        settings: &OidcSettings,
        timeout: Duration,
    ) -> Result<Self, DiscoveryFailed> {
        let http = ProviderHttp::new(timeout);
        let issuer = IssuerUrl::new(settings.issuer.clone()).map_err(|e| DiscoveryFailed {
            key: "oidc.issuer",
            reason: format!("'{}' is not a URL: {e}", settings.issuer),
        })?;
        let metadata = ProviderMetadataWithLogout::discover_async(issuer, &http)
            .await
            .map_err(|e| DiscoveryFailed {
                key: "oidc.issuer",
                reason: format!(
                    "the provider's discovery document ({}/.well-known/openid-configuration) \
                     could not be read: {}",
                    settings.issuer.trim_end_matches('/'),
                    error_chain(&e)
                ),
            })?;
        let end_session = metadata.additional_metadata().end_session_endpoint.clone();
        let redirect =
            RedirectUrl::new(settings.redirect_url.clone()).map_err(|e| DiscoveryFailed {
                key: "oidc.redirect_url",
                reason: e.to_string(),
            })?;
        let client = OidcClient::from_provider_metadata(
            metadata,
            ClientId::new(settings.client_id.clone()),
            Some(ClientSecret::new(settings.client_secret.clone())),
        )
        .set_redirect_uri(redirect);
        Ok(Self {
            client,
            http,
            scopes: settings.scopes.clone(),
            username_claim: settings.username_claim.clone(),
            groups_claim: settings.groups_claim.clone(),
            end_session,
            client_id: settings.client_id.clone(),
        })
    }

    /// The claims a checked ID token vouches for, read as configured.
    fn vouched(
        &self,
        claims: &IdTokenClaims<OtherClaims, CoreGenderClaim>,
    ) -> Result<VouchedClaims, SignInRefused> {
        let subject = claims.subject().as_str().to_owned();
        let username = self.username(claims, &subject)?;
        let groups = self.groups(claims.additional_claims())?;
        Ok(VouchedClaims {
            subject,
            username,
            groups,
        })
    }

    fn username(
        &self,
        claims: &IdTokenClaims<OtherClaims, CoreGenderClaim>,
        subject: &str,
    ) -> Result<String, SignInRefused> {
        let claim = self.username_claim.as_str();
        let standard = match claim {
            "sub" => Some(subject.to_owned()),
            "preferred_username" => claims.preferred_username().map(|u| u.as_str().to_owned()),
            "email" => claims.email().map(|e| e.as_str().to_owned()),
            "name" => claims
                .name()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_owned()),
            "nickname" => claims
                .nickname()
                .and_then(|n| n.get(None))
                .map(|n| n.as_str().to_owned()),
            _ => None,
        };
        let refused = |reason: &str| SignInRefused::Claim {
            claim: claim.to_owned(),
            key: "username_claim",
            reason: reason.to_owned(),
        };
        let text = match standard {
            Some(text) => text,
            None => match claims.additional_claims().0.get(claim) {
                Some(serde_json::Value::String(text)) => text.clone(),
                Some(_) => return Err(refused("it is not a text")),
                None => {
                    return Err(refused(
                        "the provider did not send it (is its scope asked for, oidc.scopes?)",
                    ))
                }
            },
        };
        if text.trim().is_empty() {
            return Err(refused("it is empty"));
        }
        Ok(text)
    }

    fn groups(&self, other: &OtherClaims) -> Result<Vec<String>, SignInRefused> {
        let refused = |reason: &str| SignInRefused::Claim {
            claim: self.groups_claim.clone(),
            key: "groups_claim",
            reason: reason.to_owned(),
        };
        match other.0.get(&self.groups_claim) {
            None | Some(serde_json::Value::Null) => Ok(Vec::new()),
            Some(serde_json::Value::String(one)) => Ok(vec![one.clone()]),
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    serde_json::Value::String(text) => Ok(text.clone()),
                    _ => Err(refused("it holds something else than texts")),
                })
                .collect(),
            Some(_) => Err(refused("it is neither a text nor a list of texts")),
        }
    }
}

/// An error and its sources, in one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[async_trait]
impl SignInProvider for OidcProvider {
    fn authorize(&self) -> AuthorizationRequest {
        let (challenge, verifier) = PkceCodeChallenge::new_random_sha256();
        let mut request = self.client.authorize_url(
            CoreAuthenticationFlow::AuthorizationCode,
            CsrfToken::new_random,
            Nonce::new_random,
        );
        for scope in self.scopes.iter().filter(|s| s.as_str() != "openid") {
            request = request.add_scope(Scope::new(scope.clone()));
        }
        let (url, state, nonce) = request.set_pkce_challenge(challenge).url();
        AuthorizationRequest {
            url: url.to_string(),
            state: state.secret().clone(),
            nonce: nonce.secret().clone(),
            pkce_verifier: verifier.secret().clone(),
        }
    }

    async fn redeem(
        &self,
        code: &str,
        pkce_verifier: &str,
        nonce: &str,
    ) -> Result<VouchedClaims, SignInRefused> {
        let request = self
            .client
            .exchange_code(AuthorizationCode::new(code.to_owned()))
            .map_err(|e| SignInRefused::Unreachable(e.to_string()))?
            .set_pkce_verifier(PkceCodeVerifier::new(pkce_verifier.to_owned()));
        let answer = request
            .request_async(&self.http)
            .await
            .map_err(|e| match e {
                RequestTokenError::ServerResponse(refusal) => {
                    let mut text = refusal.error().as_ref().to_owned();
                    if let Some(description) = refusal.error_description() {
                        text.push_str(": ");
                        text.push_str(description);
                    }
                    SignInRefused::CodeRefused(text)
                }
                RequestTokenError::Parse(error, _) => SignInRefused::BadIdToken(format!(
                    "the provider's token answer could not be read: {error}"
                )),
                other => SignInRefused::Unreachable(error_chain(&other)),
            })?;
        let id_token = answer.id_token().ok_or_else(|| {
            SignInRefused::BadIdToken("the provider's answer holds no ID token".to_owned())
        })?;
        let verifier = self.client.id_token_verifier();
        let claims = id_token
            .claims(&verifier, &Nonce::new(nonce.to_owned()))
            .map_err(|e| SignInRefused::BadIdToken(error_chain(&e)))?;
        self.vouched(claims)
    }

    fn sign_out_url(&self, after: &str) -> Option<String> {
        let endpoint = self.end_session.clone()?;
        let mut request =
            LogoutRequest::from(endpoint).set_client_id(ClientId::new(self.client_id.clone()));
        if let Ok(after) = PostLogoutRedirectUrl::new(after.to_owned()) {
            request = request.set_post_logout_redirect_uri(after);
        }
        Some(request.http_get_url().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_provider_that_cannot_be_read_at_start_names_the_issuer_key() {
        let settings = OidcSettings {
            issuer: "http://127.0.0.1:1".into(),
            client_id: "repo-console".into(),
            client_secret: "s3cret".into(),
            scopes: vec!["openid".into()],
            username_claim: "preferred_username".into(),
            groups_claim: "groups".into(),
            redirect_url: "http://127.0.0.1:8080/oidc/callback".into(),
        };
        let failed = OidcProvider::discover(&settings, Duration::from_secs(2))
            .await
            .expect_err("nothing listens there");
        assert_eq!(failed.key, "oidc.issuer");
        assert!(
            failed
                .reason
                .contains("http://127.0.0.1:1/.well-known/openid-configuration"),
            "{}",
            failed.reason
        );
    }
}
