//! Client support (feature `client`): what every generated reqwest client shares.
//!
//! Generated builders turn an operation into a [`Call`] (method, path, query, body); [`Core`]
//! sends it with the bearer token, the timeout and the user agent, follows redirects itself
//! (credentials only to the API's origin, never a `Referer`; see [`Builder::http_client`]),
//! retries it when the policy allows, and decodes the answer leniently into the operation's
//! type. Every failure is an
//! [`Error`] that says which kind it is: an API error (with the service's code and message),
//! a transport failure or a timeout, a response that does not decode (with the JSON path of
//! the failing field and a snippet of the body), or a request that fails validation.
//!
//! TLS is rustls with the ring crypto provider (installed as the process default when none
//! is): it builds in about a third of the time of reqwest's default aws-lc-rs (the guide's
//! client chapter, `docs/src/client.md`, has the measurement).
//!
//! By concern: the shared [`Core`], every method generated code calls on it, and the loop of
//! attempts (`core`); the [`Builder`] (`builder`); the [`Settings`], [`Credentials`] and
//! [`Token`]s it collects (`settings`); the [`Error`] of a call (`error`); the [`RetryPolicy`]
//! (`retry`); the [`Sign`]er a user adds for what the schemes cannot say (`sign`); a [`Call`] and how a request carries it (`call`); the bodies that travel:
//! [`Upload`], [`Download`], [`Response`] (`transfer`); the [`Items`] of paginated lists
//! (`pager`); the request bodies [`Core`] encodes (`encode`); the secrets taken out of every
//! error (`redact`); and what a generated request is made of (`operation`). Tokens a client
//! gets for itself: the [`TokenProvider`] and its [`TokenCache`] (`token`), the tokens one
//! attempt carries and when a 401 asks for new ones (`provided`), the OAuth2 grants
//! (`oauth`, feature `oauth2`: `TokenEndpoint` and what it makes), the device grant
//! (`device`: `DeviceCode`) and OpenID Connect providers found by their discovery document
//! (`oidc`: `OpenIdProvider`).
//!
//! ```no_run
//! # #[cfg(feature = "oauth2")]
//! # fn setup(builder: apigen_runtime::client::Builder<MyClient>) -> Result<MyClient, apigen_runtime::client::Error> {
//! # use apigen_runtime::client::TokenEndpoint;
//! // A generated client getting its own tokens: builder, credentials, call.
//! let tokens = TokenEndpoint::new("https://auth.example.com/oauth/token", "my-client")
//!     .client_secret("my-secret")
//!     .client_credentials()
//!     .scopes(["read"]);
//! builder.token_provider(tokens).build()
//! # }
//! # struct MyClient;
//! # impl From<apigen_runtime::client::Core> for MyClient { fn from(_: apigen_runtime::client::Core) -> Self { MyClient } }
//! ```
//!
//! The URL of one of the spec's servers is `servers`' [`server_url`].
//!
//! The modules form layers, none naming one above it: `error`, `retry` and `servers` at the
//! bottom, then `sign`, then `settings`, `call`, `redact`, `transfer`, `encode`, `pager` and
//! `token`, then `provided` and `oauth`, then `device`, then `oidc`, then `core`, which sends
//! what they build, then `builder` and `operation`, which build and use a core.

mod builder;
mod call;
mod core;
#[cfg(feature = "oauth2")]
mod device;
mod encode;
mod error;
#[cfg(feature = "oauth2")]
mod oauth;
#[cfg(feature = "oauth2")]
mod oidc;
mod operation;
mod pager;
mod provided;
mod redact;
mod retry;
mod servers;
mod settings;
mod sign;
mod token;
mod transfer;

pub use self::core::Core;
#[cfg(feature = "oauth2")]
pub use builder::ClientCredentialsSource;
pub use builder::{Builder, DEFAULT_TIMEOUT};
pub use call::{Call, CallBody, Headers, Made, given, given_time, scalar_text, segment, segments};
#[cfg(feature = "oauth2")]
pub use device::{DeviceAuthorization, DeviceCode};
pub use error::{Error, ErrorTypes, TokenError};
#[cfg(feature = "oauth2")]
pub use oauth::{Authorization, AuthorizationCode, ClientCredentials, RefreshToken, TokenEndpoint};
#[cfg(feature = "oauth2")]
pub use oidc::{OpenIdClientCredentials, OpenIdProvider, ProviderMetadata};
pub use operation::{DecodeAnswer, Empty, Json, Kind, Operation, Raw, Text, Varied, WithResponse, variant};
pub use pager::Items;
pub use retry::RetryPolicy;
pub use servers::server_url;
pub use settings::{Credentials, Settings, Token, http_client_builder};
pub use sign::{Sign, SignError, Signer, Signing};
pub use token::{
    AccessToken, DEFAULT_REFRESH_MARGIN, FnToken, StaticToken, TokenCache, TokenFuture, TokenProvider, token_fn,
};
pub use transfer::{
    Answer, DecodeSource, Download, Received, Response, Upload, decode_body, decode_error_as, read_headers,
};

pub use futures_util::stream::Stream;
pub use reqwest;

/// The default limit on a response body: 8 MiB. A larger body fails with
/// [`Error::TooLarge`] after at most this much was read.
pub use crate::defaults::DEFAULT_MAX_RESPONSE_BYTES;

/// The default guard on the pages a stream reads: 1000.
pub use crate::defaults::DEFAULT_MAX_PAGES;
