//! OAuth2 token providers (feature `oauth2`), built on the `oauth2` crate, their requests sent
//! by a reqwest client of this crate's (the `oauth2` crate's own reqwest integration is of
//! another reqwest version): the [`TokenEndpoint`] of an authorization server, and from it
//! the grants that keep a client in tokens — [`ClientCredentials`], [`RefreshToken`], and
//! [`AuthorizationCode`] (a PKCE authorization URL to open, then the code exchanged for a
//! [`RefreshToken`] provider).
//!
//! ```no_run
//! # async fn run() -> Result<(), apigen_runtime::client::TokenError> {
//! use apigen_runtime::client::{TokenCache, TokenEndpoint};
//! let endpoint = TokenEndpoint::new("https://auth.example.com/oauth/token", "my-client")
//!     .client_secret("my-secret");
//! let tokens = TokenCache::new(endpoint.client_credentials().scopes(["read", "write"]));
//! let token = tokens.token().await?; // cached; refreshed before it expires
//! # Ok(()) }
//! ```
//!
//! Secrets (the client secret, a refresh token, a code verifier, the tokens) never print:
//! `Debug` shows `Token("<redacted>")`, and a [`TokenError`] holds no secret (an endpoint's
//! `error_description` has them replaced by `<redacted>`; the text of an answer that does not
//! parse is not kept, only where it fails).

use super::error::TokenError;
use super::redact::Redactor;
use super::settings::{Token, http_client_builder};
use super::token::{AccessToken, TokenFuture, TokenProvider};
use super::transfer::{BodyError, read_body};
use oauth2::basic::{BasicClient, BasicTokenResponse};
use oauth2::{EndpointNotSet, EndpointSet, ErrorResponseType, RequestTokenError, StandardErrorResponse, TokenResponse};
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// The largest answer of a token endpoint read: 64 KiB (a token response is a few hundred
/// bytes; a larger answer fails rather than fill memory).
pub(super) const MAX_TOKEN_RESPONSE_BYTES: usize = 64 * 1024;

/// How long one request to a token endpoint may take: 30 s.
pub(super) const TOKEN_REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// An authorization server's token endpoint as a client of it: the URL, the client id and
/// secret, and the HTTP client its requests go through.
///
/// The client id and secret are sent as `Authorization: Basic` (RFC 6749 section 2.3.1, what
/// every server must accept), or in the form body with
/// [`TokenEndpoint::credentials_in_body`]. Requests go through a client of
/// [`http_client_builder`] (no redirects followed: a token endpoint that redirects fails)
/// unless [`TokenEndpoint::http_client`] gives another, and time out after 30 s.
#[derive(Debug, Clone)]
pub struct TokenEndpoint {
    url: String,
    client_id: String,
    client_secret: Option<Token>,
    credentials_in_body: bool,
    http: Option<reqwest::Client>,
}

impl TokenEndpoint {
    /// The token endpoint at `url`, for the client `client_id` (a public client, without a
    /// secret, unless [`TokenEndpoint::client_secret`] gives one).
    pub fn new(url: impl Into<String>, client_id: impl Into<String>) -> Self {
        TokenEndpoint {
            url: url.into(),
            client_id: client_id.into(),
            client_secret: None,
            credentials_in_body: false,
            http: None,
        }
    }

    /// The client's secret (redacted in `Debug`, and taken out of the endpoint's errors).
    pub fn client_secret(mut self, secret: impl Into<String>) -> Self {
        self.client_secret = Some(Token::new(secret));
        self
    }

    /// Sends the client id and secret as `client_id` and `client_secret` in the form body
    /// instead of `Authorization: Basic` (for servers that accept only that).
    pub fn credentials_in_body(mut self) -> Self {
        self.credentials_in_body = true;
        self
    }

    /// Sends the token requests with this reqwest client (a proxy, certificates); build it
    /// from [`http_client_builder`], which follows no redirects.
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = Some(http);
        self
    }

    /// The client-credentials grant of this client (RFC 6749 section 4.4), with no scopes
    /// until [`ClientCredentials::scopes`] names some.
    pub fn client_credentials(self) -> ClientCredentials {
        ClientCredentials { endpoint: self, scopes: Vec::new() }
    }

    /// The refresh-token grant (RFC 6749 section 6): `refresh_token` exchanged for each new
    /// access token (and replaced by the one the endpoint sends back, if it rotates them).
    pub fn refresh_token(self, refresh_token: impl Into<String>) -> RefreshToken {
        RefreshToken::of(self, None, Some(Token::new(refresh_token)))
    }

    /// The authorization-code grant with PKCE (RFC 6749 section 4.1, RFC 7636): the user
    /// opens a URL at `authorize_url`, and is sent back to `redirect_url` with a code.
    pub fn authorization_code(
        self,
        authorize_url: impl Into<String>,
        redirect_url: impl Into<String>,
    ) -> AuthorizationCode {
        AuthorizationCode {
            endpoint: self,
            authorize_url: authorize_url.into(),
            redirect_url: redirect_url.into(),
            refresh_url: None,
            scopes: Vec::new(),
        }
    }

    /// The same client at another token URL (one an OpenID Connect provider's discovery
    /// document names).
    pub(super) fn at(mut self, url: &str) -> Self {
        url.clone_into(&mut self.url);
        self
    }

    /// The `oauth2` crate's client of this endpoint.
    pub(super) fn client(
        &self,
    ) -> Result<BasicClient<EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>, TokenError>
    {
        let url = oauth2::TokenUrl::new(self.url.clone())
            .map_err(|e| TokenError::Config(format!("the token URL {:?} does not parse: {e}", self.url)))?;
        let mut client = BasicClient::new(oauth2::ClientId::new(self.client_id.clone())).set_token_uri(url);
        if let Some(secret) = &self.client_secret {
            client = client.set_client_secret(oauth2::ClientSecret::new(secret.0.to_string()));
        }
        if self.credentials_in_body {
            client = client.set_auth_type(oauth2::AuthType::RequestBody);
        }
        Ok(client)
    }

    /// The reqwest client [`TokenEndpoint::http_client`] gave, if any.
    pub(super) fn configured_http(&self) -> Option<&reqwest::Client> {
        self.http.as_ref()
    }

    /// The HTTP client token requests go through.
    pub(super) fn http(&self) -> Result<Http, TokenError> {
        let http = match &self.http {
            Some(http) => http.clone(),
            None => http_client_builder()
                .build()
                .map_err(|e| TokenError::Config(format!("the HTTP client cannot be built: {e}")))?,
        };
        Ok(Http(http))
    }

    /// Takes this endpoint's secrets (and `more`) out of what it reports.
    pub(super) fn redactor<'a>(&'a self, more: impl IntoIterator<Item = &'a Token>) -> Redactor {
        Redactor::of_secrets(self.client_secret.iter().chain(more).map(|secret| secret.0.to_string()))
    }
}

/// The client-credentials grant: a token for the client itself, with the scopes it asks for.
#[derive(Debug, Clone)]
pub struct ClientCredentials {
    endpoint: TokenEndpoint,
    scopes: Vec<String>,
}

impl ClientCredentials {
    /// The scopes each token is asked for.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    async fn request(&self) -> Result<AccessToken, TokenError> {
        let (client, http) = (self.endpoint.client()?, self.endpoint.http()?);
        let scopes = self.scopes.iter().cloned().map(oauth2::Scope::new);
        let answer = client.exchange_client_credentials().add_scopes(scopes).request_async(&http).await;
        let redactor = self.endpoint.redactor([]);
        answer.map(|answer| access_token(&answer)).map_err(|error| token_error(error, &redactor))
    }
}

impl TokenProvider for ClientCredentials {
    fn fetch(&self) -> TokenFuture<'_> {
        Box::pin(self.request())
    }
}

/// The refresh-token grant: each new access token is had for the refresh token (which the
/// endpoint may replace with each answer). Made by [`TokenEndpoint::refresh_token`], or by
/// [`AuthorizationCode::exchange`], which hands over the access token it got first.
pub struct RefreshToken {
    endpoint: TokenEndpoint,
    scopes: Vec<String>,
    /// The access token the code was exchanged for, given before any refresh.
    first: Mutex<Option<AccessToken>>,
    /// The refresh token; `None` when the endpoint gave none (the first token is all there is).
    refresh: Arc<Mutex<Option<Token>>>,
}

impl fmt::Debug for RefreshToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RefreshToken")
            .field("endpoint", &self.endpoint)
            .field("scopes", &self.scopes)
            .field("refresh_token", &*self.refresh.lock().unwrap_or_else(PoisonError::into_inner))
            .finish_non_exhaustive()
    }
}

impl RefreshToken {
    pub(super) fn of(endpoint: TokenEndpoint, first: Option<AccessToken>, refresh: Option<Token>) -> Self {
        RefreshToken { endpoint, scopes: Vec::new(), first: Mutex::new(first), refresh: Arc::new(Mutex::new(refresh)) }
    }

    /// The scopes each refresh asks for (by default none: the scopes first granted).
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The refresh token held now (the last one the endpoint sent), to store for later runs.
    pub fn current(&self) -> Option<Token> {
        self.refresh.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    async fn request(&self) -> Result<AccessToken, TokenError> {
        if let Some(first) = self.first.lock().unwrap_or_else(PoisonError::into_inner).take() {
            return Ok(first);
        }
        let Some(refresh) = self.current() else {
            return Err(TokenError::Config("the endpoint gave no refresh token: authorize again".into()));
        };
        let (client, http) = (self.endpoint.client()?, self.endpoint.http()?);
        let grant = oauth2::RefreshToken::new(refresh.0.to_string());
        let scopes = self.scopes.iter().cloned().map(oauth2::Scope::new);
        let answer = client.exchange_refresh_token(&grant).add_scopes(scopes).request_async(&http).await;
        let answer = answer.map_err(|error| token_error(error, &self.endpoint.redactor([&refresh])))?;
        if let Some(rotated) = answer.refresh_token() {
            *self.refresh.lock().unwrap_or_else(PoisonError::into_inner) = Some(Token::new(rotated.secret().clone()));
        }
        Ok(access_token(&answer))
    }
}

impl TokenProvider for RefreshToken {
    fn fetch(&self) -> TokenFuture<'_> {
        Box::pin(self.request())
    }
}

/// The authorization-code grant with PKCE: [`AuthorizationCode::start`] gives the URL the
/// user opens; the authorization server sends the user back to the redirect URL with `code`
/// and `state`, which [`AuthorizationCode::exchange`] trades for tokens.
#[derive(Debug, Clone)]
pub struct AuthorizationCode {
    endpoint: TokenEndpoint,
    authorize_url: String,
    redirect_url: String,
    /// Where the tokens are refreshed, when not at the token endpoint.
    refresh_url: Option<String>,
    scopes: Vec<String>,
}

impl crate::auth::AuthorizationCodeFlow {
    /// The authorization-code grant of this flow of the spec for the client `client_id`
    /// (a public client; [`AuthorizationCode::client_secret`] gives a confidential one its
    /// secret), the user sent back to `redirect_url`: its authorization, token and refresh
    /// URLs and its scopes are the spec's.
    pub fn for_client(&self, client_id: impl Into<String>, redirect_url: impl Into<String>) -> AuthorizationCode {
        let mut grant = TokenEndpoint::new(self.token_url, client_id)
            .authorization_code(self.authorization_url, redirect_url)
            .scopes(self.scopes.iter().copied());
        grant.refresh_url = self.refresh_url.map(str::to_owned);
        grant
    }
}

/// An authorization under way: the URL to open, and what checking and exchanging its answer
/// needs (the `state` it carries, the PKCE verifier, which never prints).
#[derive(Debug)]
pub struct Authorization {
    /// The URL the user opens.
    pub url: String,
    /// The `state` the URL carries; the answer must bring it back.
    pub state: String,
    verifier: Token,
}

impl AuthorizationCode {
    /// The client's secret, for a confidential client (redacted in `Debug`).
    pub fn client_secret(mut self, secret: impl Into<String>) -> Self {
        self.endpoint = self.endpoint.client_secret(secret);
        self
    }

    /// Refreshes the tokens at `url` rather than at the token endpoint (an `oauth2` flow's
    /// `refresh_url`), with the same client credentials.
    pub fn refresh_url(mut self, url: impl Into<String>) -> Self {
        self.refresh_url = Some(url.into());
        self
    }

    /// The scopes asked for.
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// A new authorization: a URL carrying a random `state` and the S256 challenge of a new
    /// PKCE verifier; fails when a URL does not parse.
    pub fn start(&self) -> Result<Authorization, TokenError> {
        let (challenge, verifier) = oauth2::PkceCodeChallenge::new_random_sha256();
        let scopes = self.scopes.iter().cloned().map(oauth2::Scope::new);
        let (url, state) = self
            .client()?
            .authorize_url(oauth2::CsrfToken::new_random)
            .add_scopes(scopes)
            .set_pkce_challenge(challenge)
            .url();
        Ok(Authorization {
            url: url.to_string(),
            state: state.secret().clone(),
            verifier: Token::new(verifier.secret().clone()),
        })
    }

    /// Exchanges the `code` the redirect brought (with its `state`) for tokens: a
    /// [`RefreshToken`] provider that gives the access token got now, then refreshes it.
    /// Fails with [`TokenError::StateMismatch`] when `state` is not the authorization's.
    pub async fn exchange(
        &self,
        authorization: Authorization,
        code: &str,
        state: &str,
    ) -> Result<RefreshToken, TokenError> {
        if state != authorization.state {
            return Err(TokenError::StateMismatch);
        }
        let (client, http) = (self.client()?, self.endpoint.http()?);
        let verifier = oauth2::PkceCodeVerifier::new(authorization.verifier.0.to_string());
        let answer = client
            .exchange_code(oauth2::AuthorizationCode::new(code.to_owned()))
            .set_pkce_verifier(verifier)
            .request_async(&http)
            .await;
        let code = Token::new(code);
        let redactor = self.endpoint.redactor([&authorization.verifier, &code]);
        let answer = answer.map_err(|error| token_error(error, &redactor))?;
        let refresh = answer.refresh_token().map(|refresh| Token::new(refresh.secret().clone()));
        let mut refresher = self.endpoint.clone();
        if let Some(url) = &self.refresh_url {
            refresher.url.clone_from(url);
        }
        Ok(RefreshToken::of(refresher, Some(access_token(&answer)), refresh).scopes(self.scopes.clone()))
    }

    /// The `oauth2` crate's client with the authorization and redirect URLs.
    fn client(
        &self,
    ) -> Result<BasicClient<EndpointSet, EndpointNotSet, EndpointNotSet, EndpointNotSet, EndpointSet>, TokenError> {
        let parse = |what: &str, url: &str| TokenError::Config(format!("the {what} URL {url:?} does not parse"));
        let authorize = oauth2::AuthUrl::new(self.authorize_url.clone())
            .map_err(|_| parse("authorization", &self.authorize_url))?;
        let redirect =
            oauth2::RedirectUrl::new(self.redirect_url.clone()).map_err(|_| parse("redirect", &self.redirect_url))?;
        Ok(self.endpoint.client()?.set_auth_uri(authorize).set_redirect_uri(redirect))
    }
}

/// The access token of a token response, with its lifetime.
pub(super) fn access_token(answer: &BasicTokenResponse) -> AccessToken {
    AccessToken { token: Token::new(answer.access_token().secret().clone()), expires_in: answer.expires_in() }
}

/// The [`TokenError`] of a failed token request, no secret in it.
pub(super) fn token_error<E: std::error::Error, T: ErrorResponseType + AsRef<str> + fmt::Display>(
    error: RequestTokenError<E, StandardErrorResponse<T>>,
    redactor: &Redactor,
) -> TokenError {
    match error {
        RequestTokenError::ServerResponse(answer) => TokenError::Refused {
            error: answer.error().as_ref().to_owned(),
            description: answer.error_description().map(|text| redactor.text(text)),
        },
        RequestTokenError::Request(error) => TokenError::Transport(redactor.text(&error.to_string())),
        RequestTokenError::Parse(error, _) => TokenError::Response(format!("it does not parse at `{}`", error.path())),
        RequestTokenError::Other(message) => TokenError::Response(redactor.text(&message)),
    }
}

/// The `oauth2` crate's requests sent with a reqwest client of this crate's version.
pub(super) struct Http(reqwest::Client);

/// Why a token request got no answer (its text holds no URL).
#[derive(Debug)]
pub(super) struct HttpFailure(String);

impl fmt::Display for HttpFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HttpFailure {}

pub(super) type HttpFuture<'c> = Pin<Box<dyn Future<Output = Result<oauth2::HttpResponse, HttpFailure>> + Send + 'c>>;

impl<'c> oauth2::AsyncHttpClient<'c> for Http {
    type Error = HttpFailure;
    type Future = HttpFuture<'c>;

    fn call(&'c self, request: oauth2::HttpRequest) -> Self::Future {
        Box::pin(async move {
            let failed = |error: reqwest::Error| HttpFailure(error.without_url().to_string());
            let mut request = reqwest::Request::try_from(request).map_err(failed)?;
            *request.timeout_mut() = Some(TOKEN_REQUEST_TIMEOUT);
            let response = self.0.execute(request).await.map_err(failed)?;
            let mut answer = oauth2::http::Response::builder().status(response.status());
            if let Some(headers) = answer.headers_mut() {
                headers.extend(response.headers().iter().map(|(name, value)| (name.clone(), value.clone())));
            }
            let body = read_body(response, MAX_TOKEN_RESPONSE_BYTES).await.map_err(|error| match error {
                BodyError::TooLarge => {
                    HttpFailure(format!("the answer is larger than {MAX_TOKEN_RESPONSE_BYTES} bytes"))
                }
                BodyError::Http(error) => failed(error),
            })?;
            answer.body(body).map_err(|error| HttpFailure(error.to_string()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_print() {
        let endpoint = TokenEndpoint::new("https://auth.example/token", "app").client_secret("client-s3cret");
        assert_eq!(
            format!("{endpoint:?}"),
            "TokenEndpoint { url: \"https://auth.example/token\", client_id: \"app\", \
             client_secret: Some(Token(\"<redacted>\")), credentials_in_body: false, http: None }"
        );
        let grant = endpoint.clone().client_credentials().scopes(["read"]);
        assert_eq!(format!("{grant:?}"), format!("ClientCredentials {{ endpoint: {endpoint:?}, scopes: [\"read\"] }}"));
        let refresh = endpoint.clone().refresh_token("refresh-s3cret");
        assert_eq!(
            format!("{refresh:?}"),
            format!(
                "RefreshToken {{ endpoint: {endpoint:?}, scopes: [], refresh_token: Some(Token(\"<redacted>\")), .. }}"
            )
        );
        let flow = endpoint.authorization_code("https://auth.example/authorize", "http://localhost:8080/back");
        let authorization = flow.start().unwrap();
        let printed = format!("{authorization:?}");
        assert!(printed.ends_with("verifier: Token(\"<redacted>\") }"), "{printed}");
        assert!(!printed.contains(&*authorization.verifier.0));
    }

    #[test]
    fn the_authorization_url_carries_state_and_an_s256_challenge() {
        let flow = TokenEndpoint::new("https://auth.example/token", "app")
            .authorization_code("https://auth.example/authorize", "http://localhost:8080/back")
            .scopes(["read", "write"]);
        let authorization = flow.start().unwrap();
        let url = reqwest::Url::parse(&authorization.url).unwrap();
        let pairs: std::collections::BTreeMap<String, String> = url.query_pairs().into_owned().collect();
        assert_eq!(url.as_str().split('?').next(), Some("https://auth.example/authorize"));
        assert_eq!(pairs["response_type"], "code");
        assert_eq!(pairs["client_id"], "app");
        assert_eq!(pairs["redirect_uri"], "http://localhost:8080/back");
        assert_eq!(pairs["scope"], "read write");
        assert_eq!(pairs["state"], authorization.state);
        assert_eq!(pairs["code_challenge_method"], "S256");
        assert_eq!(pairs["code_challenge"].len(), 43);
        assert!(!authorization.url.contains(&*authorization.verifier.0));
    }
}
