//! OpenID Connect providers (feature `oauth2`): the [`OpenIdProvider`] a client finds by its
//! discovery document (OpenID Connect Discovery 1.0), and the grants it runs at the endpoints
//! the document names — client credentials ([`OpenIdClientCredentials`], what
//! `Builder::client_credentials` runs on an API whose scheme is `openid-connect`), the
//! authorization code with PKCE, a refresh token and the device grant, each the OAuth 2.0
//! grant of `oauth`/`device` once the endpoint is known.
//!
//! The document is fetched once, when a grant first needs it, and kept for the provider and
//! its clones (a failed fetch is not kept: the next grant tries again). What it must say, and
//! the errors ([`TokenError::Discovery`], naming the document's URL and never a secret) when
//! it does not:
//!
//! - it is answered 200 (no redirect is followed), within 30 s and 256 KiB, and is a JSON
//!   object of the metadata's shape;
//! - it names a `token_endpoint` (every grant here needs one; the specification lets a
//!   provider offering the implicit grant only leave it out);
//! - fetched over `https`, every endpoint it names is `https` too: the client secret, the
//!   codes and the tokens would otherwise travel in clear, where the spec chose a secure
//!   provider. A document fetched over plain `http` (a provider on the developer's machine, a
//!   test) may name `http` endpoints.
//!
//! The `issuer` is not compared with the document's URL (Discovery 1.0 section 4.3): the
//! client verifies no ID token, so a mismatch puts nothing it relies on at risk, and
//! multi-tenant providers (Microsoft's `{tenantid}` issuer) would fail the comparison.
//! `scopes_supported` is read and shown ([`ProviderMetadata`]) but not enforced: a provider
//! may leave scopes it supports out of it.
//!
//! ```no_run
//! # async fn run() -> Result<(), apigen_runtime::client::TokenError> {
//! use apigen_runtime::client::{OpenIdProvider, TokenCache};
//! let provider = OpenIdProvider::new("https://sso.example.com/.well-known/openid-configuration", "my-app")
//!     .client_secret("my-secret");
//! let tokens = TokenCache::new(provider.client_credentials().scopes(["vault-admin"]));
//! let token = tokens.token().await?; // discovery, then the token endpoint it names
//! # Ok(()) }
//! ```

use super::device::DeviceCode;
use super::error::TokenError;
use super::oauth::{AuthorizationCode, RefreshToken, TOKEN_REQUEST_TIMEOUT, TokenEndpoint};
use super::settings::http_client_builder;
use super::token::{TokenFuture, TokenProvider};
use super::transfer::{BodyError, read_body};
use serde::Deserialize;
use std::sync::Arc;

/// The largest discovery document read: 256 KiB (the largest providers' are a few KiB).
const MAX_DISCOVERY_BYTES: usize = 256 * 1024;

/// An OpenID Connect provider as a client of it: its discovery document's URL, the client's
/// id and secret, and the metadata once discovered (see the module docs). Cloned cheaply, the
/// clones sharing one discovery.
#[derive(Debug, Clone)]
pub struct OpenIdProvider {
    discovery_url: String,
    /// The client's credentials and HTTP client; its URL is set to each endpoint discovered.
    client: TokenEndpoint,
    scopes: Vec<String>,
    metadata: Arc<tokio::sync::OnceCell<ProviderMetadata>>,
}

/// What a provider's discovery document says that a client uses (OpenID Connect Discovery
/// 1.0 section 3, RFC 8628 section 4 for the device endpoint).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderMetadata {
    /// The provider's issuer identifier, as the document gives it.
    pub issuer: Option<String>,
    /// Where tokens are got and refreshed.
    pub token_endpoint: String,
    /// Where the user authorizes the client (authorization code grant).
    pub authorization_endpoint: Option<String>,
    /// Where a device asks for its code (device grant).
    pub device_authorization_endpoint: Option<String>,
    /// The scopes the provider says it supports (it may support more).
    pub scopes_supported: Vec<String>,
}

/// The document as it comes: every member optional, so that a missing one gets its own error.
#[derive(Deserialize)]
struct Document {
    issuer: Option<String>,
    token_endpoint: Option<String>,
    authorization_endpoint: Option<String>,
    device_authorization_endpoint: Option<String>,
    scopes_supported: Option<Vec<String>>,
}

impl crate::auth::OpenIdConnectFlow {
    /// The provider of this scheme of the spec for the client `client_id` (a public client;
    /// [`OpenIdProvider::client_secret`] gives a confidential one its secret), asking for the
    /// scopes the API's operations require of the scheme.
    pub fn for_client(&self, client_id: impl Into<String>) -> OpenIdProvider {
        OpenIdProvider::new(self.discovery_url, client_id).scopes(self.scopes.iter().copied())
    }
}

impl OpenIdProvider {
    /// The provider whose discovery document is at `discovery_url`
    /// (`https://../.well-known/openid-configuration`), for the client `client_id` (a public
    /// client, without a secret, unless [`OpenIdProvider::client_secret`] gives one).
    pub fn new(discovery_url: impl Into<String>, client_id: impl Into<String>) -> Self {
        let discovery_url = discovery_url.into();
        OpenIdProvider {
            client: TokenEndpoint::new(discovery_url.clone(), client_id),
            discovery_url,
            scopes: Vec::new(),
            metadata: Arc::default(),
        }
    }

    /// The client's secret (redacted in `Debug`, and taken out of the endpoints' errors).
    pub fn client_secret(mut self, secret: impl Into<String>) -> Self {
        self.client = self.client.client_secret(secret);
        self
    }

    /// Sends the client id and secret in the token requests' form body instead of
    /// `Authorization: Basic` ([`TokenEndpoint::credentials_in_body`]).
    pub fn credentials_in_body(mut self) -> Self {
        self.client = self.client.credentials_in_body();
        self
    }

    /// Sends the discovery and token requests with this reqwest client; build it from
    /// [`http_client_builder`], which follows no redirects.
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.client = self.client.http_client(http);
        self
    }

    /// The scopes every grant of this provider asks for (the authorization code grant asks
    /// for `openid` too, first, as OpenID Connect Core 1.0 section 3.1.2.1 requires).
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The provider's metadata: its discovery document, fetched by the first call and kept.
    pub async fn metadata(&self) -> Result<&ProviderMetadata, TokenError> {
        self.metadata.get_or_try_init(|| self.discover()).await
    }

    /// The client-credentials grant at the provider's token endpoint, asking for this
    /// provider's scopes unless [`OpenIdClientCredentials::scopes`] says others.
    pub fn client_credentials(&self) -> OpenIdClientCredentials {
        OpenIdClientCredentials { provider: self.clone(), scopes: self.scopes.clone() }
    }

    /// The authorization-code grant with PKCE at the provider's endpoints, the user sent back
    /// to `redirect_url`, asking for `openid` and this provider's scopes; fails when the
    /// document names no `authorization_endpoint`.
    pub async fn authorization_code(&self, redirect_url: impl Into<String>) -> Result<AuthorizationCode, TokenError> {
        let metadata = self.metadata().await?;
        let authorize = self.needed("authorization_endpoint", metadata.authorization_endpoint.as_deref())?;
        let openid = std::iter::once("openid".to_owned());
        let scopes = openid.chain(self.scopes.iter().filter(|scope| *scope != "openid").cloned());
        Ok(self.at(&metadata.token_endpoint).authorization_code(authorize, redirect_url).scopes(scopes))
    }

    /// The refresh-token grant at the provider's token endpoint.
    pub async fn refresh_token(&self, refresh_token: impl Into<String>) -> Result<RefreshToken, TokenError> {
        let metadata = self.metadata().await?;
        Ok(self.at(&metadata.token_endpoint).refresh_token(refresh_token).scopes(self.scopes.clone()))
    }

    /// The device grant (RFC 8628) at the provider's endpoints, asking for this provider's
    /// scopes; fails when the document names no `device_authorization_endpoint`.
    pub async fn device_code(&self) -> Result<DeviceCode, TokenError> {
        let metadata = self.metadata().await?;
        let device = self.needed("device_authorization_endpoint", metadata.device_authorization_endpoint.as_deref())?;
        Ok(self.at(&metadata.token_endpoint).device_code(device).scopes(self.scopes.clone()))
    }

    /// The client at `url`, one of the document's endpoints.
    fn at(&self, url: &str) -> TokenEndpoint {
        self.client.clone().at(url)
    }

    /// The endpoint `member`, which a grant needs.
    fn needed<'a>(&self, member: &str, url: Option<&'a str>) -> Result<&'a str, TokenError> {
        url.ok_or_else(|| self.problem(format!("names no `{member}`")))
    }

    fn problem(&self, problem: impl Into<String>) -> TokenError {
        TokenError::Discovery { url: self.discovery_url.clone(), problem: problem.into() }
    }

    /// Fetches the discovery document and checks it (see the module docs).
    async fn discover(&self) -> Result<ProviderMetadata, TokenError> {
        let body = self.fetch_document().await?;
        let value: serde_json::Value =
            serde_json::from_slice(&body).map_err(|e| self.problem(format!("is not JSON: {e}")))?;
        let document: Document = serde_json::from_value(value)
            .map_err(|e| self.problem(format!("is not an OpenID provider's metadata: {e}")))?;
        let token_endpoint = self.needed("token_endpoint", document.token_endpoint.as_deref())?.to_owned();
        let metadata = ProviderMetadata {
            issuer: document.issuer,
            token_endpoint,
            authorization_endpoint: document.authorization_endpoint,
            device_authorization_endpoint: document.device_authorization_endpoint,
            scopes_supported: document.scopes_supported.unwrap_or_default(),
        };
        self.check_https(&metadata)?;
        Ok(metadata)
    }

    /// The document's bytes, answered 200.
    async fn fetch_document(&self) -> Result<Vec<u8>, TokenError> {
        let http = match self.client.configured_http() {
            Some(http) => http.clone(),
            None => http_client_builder()
                .build()
                .map_err(|e| TokenError::Config(format!("the HTTP client cannot be built: {e}")))?,
        };
        let failed = |e: reqwest::Error| self.problem(format!("could not be fetched: {}", e.without_url()));
        let request = http.get(&self.discovery_url).header(reqwest::header::ACCEPT, "application/json");
        let response = request.timeout(TOKEN_REQUEST_TIMEOUT).send().await.map_err(failed)?;
        if response.status() != reqwest::StatusCode::OK {
            return Err(self.problem(format!("was answered {}", response.status())));
        }
        read_body(response, MAX_DISCOVERY_BYTES).await.map_err(|error| match error {
            BodyError::TooLarge => self.problem(format!("is larger than {MAX_DISCOVERY_BYTES} bytes")),
            BodyError::Http(e) => failed(e),
        })
    }

    /// Refuses an endpoint that is not `https` in a document fetched over `https`.
    fn check_https(&self, metadata: &ProviderMetadata) -> Result<(), TokenError> {
        if !is_https(&self.discovery_url) {
            return Ok(());
        }
        let endpoints = [
            ("token_endpoint", Some(&metadata.token_endpoint)),
            ("authorization_endpoint", metadata.authorization_endpoint.as_ref()),
            ("device_authorization_endpoint", metadata.device_authorization_endpoint.as_ref()),
        ];
        match endpoints.into_iter().find(|(_, url)| url.is_some_and(|url| !is_https(url))) {
            Some((member, Some(url))) => Err(self.problem(format!(
                "was fetched over https but its `{member}` is not ({url}): credentials would travel in clear"
            ))),
            _ => Ok(()),
        }
    }
}

/// Whether `url` is an `https` URL (its scheme compared without case).
fn is_https(url: &str) -> bool {
    url.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
}

/// The client-credentials grant at an OpenID Connect provider's token endpoint, found by its
/// discovery document: a [`TokenProvider`].
#[derive(Debug, Clone)]
pub struct OpenIdClientCredentials {
    provider: OpenIdProvider,
    scopes: Vec<String>,
}

impl OpenIdClientCredentials {
    /// The scopes each token is asked for.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}

impl TokenProvider for OpenIdClientCredentials {
    fn fetch(&self) -> TokenFuture<'_> {
        Box::pin(async move {
            let metadata = self.provider.metadata().await?;
            let grant = self.provider.at(&metadata.token_endpoint).client_credentials().scopes(self.scopes.clone());
            grant.fetch().await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metadata(token: &str, authorization: Option<&str>) -> ProviderMetadata {
        ProviderMetadata {
            issuer: None,
            token_endpoint: token.to_owned(),
            authorization_endpoint: authorization.map(str::to_owned),
            device_authorization_endpoint: None,
            scopes_supported: Vec::new(),
        }
    }

    #[test]
    fn a_document_fetched_over_https_may_name_no_plain_http_endpoint() {
        let secure = OpenIdProvider::new("https://sso.example.com/.well-known/openid-configuration", "app");
        assert_eq!(secure.check_https(&metadata("HTTPS://sso.example.com/token", None)), Ok(()));
        assert_eq!(
            secure.check_https(&metadata("https://sso.example.com/token", Some("http://sso.example.com/authorize"))),
            Err(TokenError::Discovery {
                url: "https://sso.example.com/.well-known/openid-configuration".into(),
                problem: "was fetched over https but its `authorization_endpoint` is not \
                          (http://sso.example.com/authorize): credentials would travel in clear"
                    .into(),
            })
        );
        // A provider on the developer's machine, over plain http, may name http endpoints.
        let local = OpenIdProvider::new("http://127.0.0.1:8080/.well-known/openid-configuration", "app");
        assert_eq!(local.check_https(&metadata("http://127.0.0.1:8080/token", None)), Ok(()));
    }

    #[test]
    fn the_client_secret_never_prints() {
        let provider = OpenIdProvider::new("https://sso.example.com/.well-known/openid-configuration", "app")
            .client_secret("oidc-s3cret");
        let printed = format!("{provider:?} {:?}", provider.client_credentials());
        assert!(printed.contains("client_secret: Some(Token(\"<redacted>\"))"), "{printed}");
        assert!(!printed.contains("oidc-s3cret"), "{printed}");
    }
}
