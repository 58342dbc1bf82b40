//! What can go wrong with a call ([`Error`]), the error body of a failure status read into it
//! (through the API's error shape, and as the error type the spec declares: [`ErrorTypes`],
//! which decode with `transfer`'s `decode_error_as`); the secrets the client holds are taken
//! out of every error it reports (see `redact`). The bottom of the client: it names no other
//! part of it.

use crate::error::ErrorShape;
use crate::validate::{Violation, Violations};
use std::any::Any;
use std::fmt;
use std::time::Duration;

/// Everything that can go wrong with a call.
#[derive(Debug)]
pub enum Error {
    /// The service answered with a failure status.
    Api {
        /// The HTTP status.
        status: u16,
        /// The status the error body states (where the API's error shape puts it), or the
        /// HTTP status.
        code: u16,
        /// The message of the error body (where the API's error shape puts it), or the body
        /// as text.
        message: String,
        /// The violations of a validation failure (where the API's error shape puts them).
        violations: Vec<Violation>,
        /// The body as received, any secret the client holds replaced by `<redacted>` (in
        /// any form: raw, percent-encoded, JSON-escaped, base64 as in Basic credentials).
        body: String,
        /// The response headers (a request id, `Retry-After`, rate limits), any secret the
        /// client holds replaced by `<redacted>`; boxed, so the error stays small on the
        /// happy path.
        headers: Box<reqwest::header::HeaderMap>,
        /// The body decoded as the error type the spec declares for this status (or for the
        /// API), when it declares one and the body fits it; read it with
        /// [`Error::body_as`]. `None` leaves `body` as the raw bytes as text.
        decoded: Option<Box<dyn Any + Send + Sync>>,
    },
    /// The request did not complete: connection refused or reset, DNS, TLS, ... Its URL
    /// shows the query parameters carrying the API's keys as `%3Credacted%3E`.
    Transport(reqwest::Error),
    /// An attempt took longer than the timeout, or the call (retries and waits included)
    /// longer than its deadline.
    Timeout(Duration),
    /// The response body is larger than the client accepts (see
    /// [`Builder::max_response_bytes`](super::Builder::max_response_bytes)); at most that much was read.
    TooLarge {
        /// The HTTP status of the response.
        status: u16,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The response does not decode into the operation's type.
    Decode {
        /// JSON pointer of the failing value (`/items/3/createdAt`; empty for the root).
        path: String,
        /// What is wrong with it.
        message: String,
        /// The failing value (or the start of the body), at most 200 characters, any secret
        /// the client holds replaced by `<redacted>` before it was cut.
        snippet: String,
    },
    /// The request body fails the spec's constraints (client-side validation is on).
    Invalid(Violations),
    /// A stream read more pages than its guard allows, or the service repeated a cursor.
    Pagination(String),
    /// The service redirected where the client refuses to follow: a `Location` carrying a
    /// user name or password (which the HTTP client would send as `Authorization: Basic`).
    Redirect(String),
    /// The client is misconfigured (a base URL that does not parse, ...).
    Config(String),
    /// No token could be had for the auth scheme `scheme` from its
    /// [`TokenProvider`](super::TokenProvider): the token endpoint refused (its OAuth2 error
    /// code, such as `invalid_client`, in [`TokenError::Refused`]), could not be reached, or
    /// the provider failed. No request was sent to the API. No secret is in it.
    Token {
        /// The auth scheme's name in the spec.
        scheme: String,
        /// Why.
        error: TokenError,
    },
}

/// Why a [`TokenProvider`](super::TokenProvider) gave no token. Never holds a secret: a
/// description the token endpoint sends has every secret of the provider (client secret,
/// refresh token, code verifier) replaced by `<redacted>`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TokenError {
    /// The token endpoint answered with an OAuth2 error (RFC 6749 section 5.2).
    Refused {
        /// The error code: `invalid_client`, `invalid_grant`, `invalid_scope`, ...
        error: String,
        /// The endpoint's `error_description`, if any.
        description: Option<String>,
    },
    /// The token endpoint could not be reached, or its answer not read.
    Transport(String),
    /// The token endpoint's answer is not a token response.
    Response(String),
    /// The `state` the authorization server sent back is not the one the authorization URL
    /// carried: the code is not exchanged (it may come from another user's session).
    StateMismatch,
    /// The provider is set up wrongly (a URL that does not parse, ...).
    Config(String),
    /// A provider of the user's (a closure) failed, with its reason.
    Provider(String),
    /// An OpenID Connect provider's discovery document could not be had or used: not
    /// reached, not answered 200, not JSON of the metadata's shape, no `token_endpoint`, or
    /// an endpoint that is not `https` where the document was (see
    /// [`OpenIdProvider`](super::OpenIdProvider)).
    Discovery {
        /// The discovery document's URL.
        url: String,
        /// What is wrong with it.
        problem: String,
    },
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenError::Refused { error, description: Some(description) } => {
                write!(f, "the token endpoint refused: {error} ({description})")
            }
            TokenError::Refused { error, description: None } => write!(f, "the token endpoint refused: {error}"),
            TokenError::Transport(message) => write!(f, "the token endpoint could not be reached: {message}"),
            TokenError::Response(message) => write!(f, "the token endpoint's answer is not a token: {message}"),
            TokenError::StateMismatch => {
                f.write_str("the authorization answer's `state` is not the one sent: the code is not exchanged")
            }
            TokenError::Config(message) | TokenError::Provider(message) => f.write_str(message),
            TokenError::Discovery { url, problem } => {
                write!(f, "the OpenID Connect discovery document at {url} {problem}")
            }
        }
    }
}

impl std::error::Error for TokenError {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Api { status, message, violations, .. } => {
                write!(f, "the service answered {status}: {message}")?;
                for violation in violations {
                    write!(f, "; {violation}")?;
                }
                Ok(())
            }
            Error::Transport(error) => write!(f, "the request failed: {error}"),
            Error::Timeout(after) => write!(f, "no answer within {after:?}"),
            Error::TooLarge { status, limit } => {
                write!(f, "the service answered {status} with a body larger than the limit of {limit} bytes")
            }
            Error::Decode { path, message, snippet } => {
                let path = if path.is_empty() { "(root)" } else { path };
                write!(f, "the response does not decode at {path}: {message} (near {snippet})")
            }
            Error::Invalid(violations) => write!(f, "the request is invalid: {violations}"),
            Error::Pagination(message) | Error::Redirect(message) | Error::Config(message) => f.write_str(message),
            Error::Token { scheme, error } => write!(f, "no token for `{scheme}`: {error}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(error) => Some(error),
            Error::Token { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl Error {
    /// The HTTP status of an API error.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// The error body of an API error as the error type `T` the spec declares for its
    /// status; `None` for another type, another kind of error, or a body that did not fit.
    pub fn body_as<T: 'static>(&self) -> Option<&T> {
        match self {
            Error::Api { decoded: Some(decoded), .. } => decoded.downcast_ref(),
            _ => None,
        }
    }
}

/// Decodes an error body of a given status into the error type the spec declares for it
/// (generated per operation); `None` when it declares none or the body does not fit.
pub type ErrorTypes = fn(u16, &[u8]) -> Option<Box<dyn Any + Send + Sync>>;

/// The error of a failure status: what the API's error shape finds in the body (the raw text
/// as the message otherwise), and the body decoded as the error type declared for the status.
pub(super) fn api_error(
    status: u16,
    headers: reqwest::header::HeaderMap,
    body: Vec<u8>,
    shape: &ErrorShape,
    types: Option<ErrorTypes>,
) -> Error {
    let text = String::from_utf8_lossy(&body).into_owned();
    let parsed = serde_json::from_slice::<serde_json::Value>(&body).map(|value| shape.read(&value)).ok();
    let (code, message, violations) = parsed.unwrap_or_default();
    let decoded = types.and_then(|decode| decode(status, &body));
    Error::Api {
        status,
        code: code.unwrap_or(status),
        message: message.unwrap_or_else(|| text.clone()),
        violations,
        body: text,
        headers: Box::new(headers),
        decoded,
    }
}
