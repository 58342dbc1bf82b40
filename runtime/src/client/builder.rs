//! Setting up a generated client: the [`Builder`] behind the generated `ClientBuilder`, which
//! collects the [`Settings`] and builds the client's [`Core`] from them.

use super::core::Core;
use super::error::Error;
use super::retry::RetryPolicy;
use super::settings::{Credentials, Settings, Token};
use super::sign::{Sign, Signer};
use super::token::{TokenCache, TokenProvider};
use crate::auth::{ClientCredentialsFlow, OpenIdConnectFlow, Scheme, SchemeKind};
use crate::defaults::{DEFAULT_MAX_PAGES, DEFAULT_MAX_RESPONSE_BYTES};
use crate::error::ErrorShape;
use std::time::Duration;

/// The default timeout of one attempt: 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(crate::defaults::DEFAULT_TIMEOUT_SECONDS);

/// Sets up a generated client; `C` is the generated `Client`.
///
/// Defaults: timeout [`DEFAULT_TIMEOUT`] (30 s) per attempt, the generated crate's name and
/// version as user agent, [`RetryPolicy::default`] (3 retries of GET, PUT and DELETE on 429,
/// 502, 503, 504 and connection errors), no client-side validation, at most
/// [`DEFAULT_MAX_PAGES`] pages per stream, response bodies of at most
/// [`DEFAULT_MAX_RESPONSE_BYTES`] (8 MiB), a deadline per call of the timeout times the
/// attempts allowed (2 minutes by default), and a reqwest client of its own.
#[derive(Debug)]
#[must_use = "a builder does nothing until `.build()`"]
pub struct Builder<C> {
    settings: Settings,
    /// The token providers, by scheme name (see [`Builder::token_provider`]).
    providers: Vec<(String, TokenCache)>,
    /// The spec's client-credentials flows, which [`Builder::client_credentials`] picks from.
    flows: &'static [ClientCredentialsFlow],
    /// The spec's OpenID Connect schemes, which [`Builder::client_credentials`] picks from
    /// when there is no client-credentials flow.
    openid: &'static [OpenIdConnectFlow],
    /// What a setter naming no scheme found no scheme for: `build()` fails with the first.
    unplaced: Vec<String>,
    client: std::marker::PhantomData<fn() -> C>,
}

impl<C: From<Core>> Builder<C> {
    /// A builder for the API at `base_url` whose auth schemes are `schemes` and error shape
    /// `errors`, without credentials yet.
    pub fn new(
        base_url: impl Into<String>,
        user_agent: &str,
        schemes: &'static [Scheme],
        errors: &'static ErrorShape,
    ) -> Self {
        Builder {
            settings: Settings {
                base_url: base_url.into(),
                schemes,
                errors,
                credentials: Vec::new(),
                timeout: DEFAULT_TIMEOUT,
                user_agent: user_agent.to_owned(),
                retry: RetryPolicy::default(),
                validate_requests: false,
                max_pages: DEFAULT_MAX_PAGES,
                max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
                deadline: None,
                http: None,
                default_headers: Vec::new(),
                signer: None,
            },
            providers: Vec::new(),
            flows: &[],
            openid: &[],
            unplaced: Vec::new(),
            client: std::marker::PhantomData,
        }
    }

    /// The bearer token or API key of the scheme named `scheme` in the spec (replacing any
    /// given before); a name the API does not declare, or a basic scheme, fails `build()`.
    pub fn token(mut self, scheme: &str, token: impl Into<String>) -> Self {
        self.set_credentials(scheme, Credentials::Token(Token::new(token)));
        self
    }

    /// The user name and password of the basic scheme named `scheme` in the spec.
    pub fn basic(mut self, scheme: &str, user: impl Into<String>, password: impl Into<String>) -> Self {
        self.set_credentials(scheme, Credentials::Basic { user: user.into(), password: Token::new(password) });
        self
    }

    /// Sends `token` as `Authorization: Bearer <token>` for the API's first bearer scheme (in
    /// the spec's order; an `oauth2` or OpenID Connect scheme is one): a static token, never
    /// refreshed. Another bearer scheme: [`Builder::token`] with its name. `build()` fails
    /// when the API declares no bearer scheme.
    pub fn bearer(mut self, token: impl Into<String>) -> Self {
        if let Some(scheme) = self.first_scheme(".bearer(..)", "bearer", |kind| matches!(kind, SchemeKind::Bearer)) {
            self.set_credentials(scheme, Credentials::Token(Token::new(token)));
        }
        self
    }

    /// Sends `key` as the API's first API-key scheme says (a header, a query parameter or a
    /// cookie). Another one: [`Builder::token`] with its name. `build()` fails when the API
    /// declares no API-key scheme.
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        if let Some(scheme) =
            self.first_scheme(".api_key(..)", "API-key", |kind| matches!(kind, SchemeKind::ApiKey { .. }))
        {
            self.set_credentials(scheme, Credentials::Token(Token::new(key)));
        }
        self
    }

    /// Gets the bearer token of the API's first bearer scheme (as [`Builder::bearer`] picks
    /// it) from `provider`: [`Builder::token_provider_for`] that scheme.
    pub fn token_provider(mut self, provider: impl TokenProvider) -> Self {
        match self.first_scheme(".token_provider(..)", "bearer", |kind| matches!(kind, SchemeKind::Bearer)) {
            Some(scheme) => self.token_provider_for(scheme, provider),
            None => self,
        }
    }

    /// Gets the bearer token of the scheme named `scheme` from `provider` (replacing any
    /// token given before), through a [`TokenCache`] with the default margin: fetched once,
    /// reused, fetched again before it expires, one fetch for concurrent calls. See
    /// [`Builder::token_cache`] for what a 401 does.
    pub fn token_provider_for(self, scheme: &str, provider: impl TokenProvider) -> Self {
        self.token_cache(scheme, TokenCache::new(provider))
    }

    /// The spec's client-credentials flows (a generated client's `oauth::<SCHEME>`), which
    /// [`Builder::client_credentials`] picks from: the generated `Client::builder` sets them.
    pub fn oauth_flows(mut self, flows: &'static [ClientCredentialsFlow]) -> Self {
        self.flows = flows;
        self
    }

    /// The spec's OpenID Connect schemes (a generated client's `oauth::<SCHEME>` of each),
    /// which [`Builder::client_credentials`] picks from when there is no client-credentials
    /// flow: the generated `Client::builder` sets them.
    pub fn openid_flows(mut self, flows: &'static [OpenIdConnectFlow]) -> Self {
        self.openid = flows;
        self
    }

    /// Gets the tokens of the spec's client-credentials flow (the first, in the spec's order,
    /// of those [`Builder::oauth_flows`] set) with `client_id` and `client_secret`:
    /// [`Builder::client_credentials_of`] that flow. Without one, the first OpenID Connect
    /// scheme's ([`Builder::openid_flows`]): tokens by the client-credentials grant at the
    /// token endpoint its provider's discovery document names (an OAuth 2.0 flow comes first
    /// because the spec names its token URL, where a provider's may offer other grants only).
    /// `build()` fails when the spec declares neither.
    #[cfg(feature = "oauth2")]
    pub fn client_credentials(mut self, client_id: impl Into<String>, client_secret: impl Into<String>) -> Self {
        if let Some(flow) = self.flows.first() {
            return self.client_credentials_of(flow, client_id, client_secret);
        }
        if let Some(flow) = self.openid.first() {
            return self.client_credentials_of(flow, client_id, client_secret);
        }
        self.unplaced.push(
            "`.client_credentials(..)`: the API declares no OAuth 2.0 client-credentials flow and no OpenID Connect scheme"
                .into(),
        );
        self
    }

    /// Gets the tokens of the client-credentials `flow` (one of a generated client's
    /// `oauth::<SCHEME>`, or one of yours: a [`ClientCredentialsFlow`], or an
    /// [`OpenIdConnectFlow`] whose provider's discovery document names the token endpoint):
    /// fetched with `client_id` and `client_secret`, asking for its scopes (those the API's
    /// operations require of the scheme), then cached and refreshed as
    /// [`Builder::token_provider_for`] says. Other scopes or settings: build the provider with
    /// [`TokenEndpoint`](super::TokenEndpoint) or
    /// [`OpenIdProvider`](super::OpenIdProvider) and pass it to `token_provider`.
    #[cfg(feature = "oauth2")]
    pub fn client_credentials_of(
        self,
        flow: &impl ClientCredentialsSource,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        let cache = flow.tokens(client_id.into(), client_secret.into());
        self.token_cache(flow.scheme(), cache)
    }

    /// Gets the bearer token of the scheme named `scheme` from `cache` (one cache may serve
    /// several clients; [`TokenCache::with_margin`] sets its margin). A name the API does not
    /// declare, or a scheme other than bearer, fails `build()`.
    ///
    /// A call the API answers 401 with a token from a provider that refreshes (any but
    /// [`StaticToken`](super::StaticToken)) is sent once more with a new token, the cached one
    /// invalidated: on any 401, since many APIs say nothing more, unless its
    /// `WWW-Authenticate` names an error other than `invalid_token` (`invalid_request`: a new
    /// token would not help). Once per call, whatever the retry policy (the service refused
    /// the request, so even a POST is sent again), but never a streamed body, which is sent
    /// once: that call fails with the 401. The tokens are taken out of every error, as keys are.
    pub fn token_cache(mut self, scheme: &str, cache: TokenCache) -> Self {
        self.settings.credentials.retain(|(name, _)| name != scheme);
        self.providers.retain(|(name, _)| name != scheme);
        self.providers.push((scheme.to_owned(), cache));
        self
    }

    /// The name of the API's first scheme whose kind `fits`; when there is none, notes it for
    /// `build()` to report.
    fn first_scheme(&mut self, setter: &str, what: &str, fits: impl Fn(&SchemeKind) -> bool) -> Option<&'static str> {
        let found = self.settings.schemes.iter().find(|scheme| fits(&scheme.kind)).map(|scheme| scheme.name);
        if found.is_none() {
            let known: Vec<String> = self.settings.schemes.iter().map(|scheme| format!("`{}`", scheme.name)).collect();
            let known = if known.is_empty() { "none".to_owned() } else { known.join(", ") };
            self.unplaced.push(format!("`{setter}`: the API declares no {what} scheme (it has: {known})"));
        }
        found
    }

    fn set_credentials(&mut self, scheme: &str, credentials: Credentials) {
        self.providers.retain(|(name, _)| name != scheme);
        self.settings.credentials.retain(|(name, _)| name != scheme);
        self.settings.credentials.push((scheme.to_owned(), credentials));
    }

    /// Timeout of one attempt (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.settings.timeout = timeout;
        self
    }

    /// The `User-Agent` header.
    pub fn user_agent(mut self, user_agent: impl Into<String>) -> Self {
        self.settings.user_agent = user_agent.into();
        self
    }

    /// When to retry; [`RetryPolicy::none`] switches retries off.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.settings.retry = policy;
        self
    }

    /// Validate request bodies against the spec before sending them (off by default): an
    /// invalid body fails with [`Error::Invalid`] without a request being sent.
    pub fn validate_requests(mut self, validate: bool) -> Self {
        self.settings.validate_requests = validate;
        self
    }

    /// Most pages one stream reads before failing with [`Error::Pagination`].
    pub fn max_pages(mut self, pages: usize) -> Self {
        self.settings.max_pages = pages;
        self
    }

    /// Largest response body read, in bytes (default 8 MiB): a larger one fails with
    /// [`Error::TooLarge`] as soon as the limit is passed, so memory stays bounded.
    pub fn max_response_bytes(mut self, limit: usize) -> Self {
        self.settings.max_response_bytes = limit;
        self
    }

    /// Longest one call may take, every attempt, backoff and `Retry-After` wait included
    /// (default: the timeout times the attempts the retry policy allows). A wait that would
    /// end past it ends the call at once with the last answer's error.
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.settings.deadline = Some(deadline);
        self
    }

    /// Adds a header to every request (a tenant, an API version, a tracing header); a name or
    /// value a header cannot hold fails every call with [`Error::Config`]. Per call, the
    /// builders' `.header(..)` adds more.
    pub fn default_header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.settings.default_headers.push((name.into(), value.into()));
        self
    }

    /// Signs every request sent to the API's origin with `signer`, after every other header
    /// is set, again on each retry and redirect hop (replacing any signer given before): for
    /// what the spec's schemes cannot say, such as an HMAC of the request or AWS Signature V4.
    /// See [`Sign`] for what it sees and when it is called.
    pub fn signer(mut self, signer: impl Sign) -> Self {
        self.settings.signer = Some(Signer::new(signer));
        self
    }

    /// Sends requests with this reqwest client (its pool, proxy and TLS settings).
    ///
    /// Build it from [`http_client_builder`](super::http_client_builder), which leaves redirects to the generated client:
    /// it follows up to 10 itself and sends credentials (a bearer token, basic credentials,
    /// an API key in a header, the query or a cookie) only to the API's origin (scheme, host
    /// and port of the base URL); elsewhere it sends no credentials, no `Cookie`, no
    /// `Authorization` or `Proxy-Authorization` of your default headers, and strips the
    /// query parameters carrying the API's keys from the URL; it never sends `Referer`.
    ///
    /// A reqwest client cannot be changed once built, so these hold only if this one does not
    /// follow redirects itself: one built from `reqwest::Client::builder()` (or given a
    /// `redirect::Policy` other than `none()`) follows them before the generated client sees
    /// them, with reqwest's rules: `Authorization` and `Cookie` are dropped on a redirect to
    /// another host, but an API key in another header goes along, and `Referer` (unless
    /// switched off) carries the URL, an API key in its query included.
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.settings.http = Some(http);
        self
    }

    /// The client; fails when the base URL does not parse, or credentials were given for a
    /// scheme the API does not declare (`.bearer(..)` without a bearer scheme).
    pub fn build(self) -> Result<C, Error> {
        if let Some(problem) = self.unplaced.into_iter().next() {
            return Err(Error::Config(problem));
        }
        Core::new(self.settings)?.with_providers(self.providers).map(C::from)
    }
}

/// A spec's scheme a client gets tokens of by the client-credentials grant: an OAuth 2.0
/// [`ClientCredentialsFlow`] (its token URL) or an [`OpenIdConnectFlow`] (the token endpoint
/// of its provider's discovery document). What [`Builder::client_credentials_of`] takes.
#[cfg(feature = "oauth2")]
pub trait ClientCredentialsSource {
    /// The scheme's name in the spec.
    fn scheme(&self) -> &'static str;
    /// Tokens of the client `client_id` with `client_secret`, asking for the flow's scopes,
    /// behind a cache with the default margin.
    fn tokens(&self, client_id: String, client_secret: String) -> TokenCache;
}

#[cfg(feature = "oauth2")]
impl ClientCredentialsSource for ClientCredentialsFlow {
    fn scheme(&self) -> &'static str {
        self.scheme
    }

    fn tokens(&self, client_id: String, client_secret: String) -> TokenCache {
        let endpoint = super::TokenEndpoint::new(self.token_url, client_id).client_secret(client_secret);
        TokenCache::new(endpoint.client_credentials().scopes(self.scopes.iter().copied()))
    }
}

#[cfg(feature = "oauth2")]
impl ClientCredentialsSource for OpenIdConnectFlow {
    fn scheme(&self) -> &'static str {
        self.scheme
    }

    fn tokens(&self, client_id: String, client_secret: String) -> TokenCache {
        TokenCache::new(self.for_client(client_id).client_secret(client_secret).client_credentials())
    }
}
