//! How a generated client is set up: the [`Settings`] its builder collects, the
//! [`Credentials`] of each auth scheme (secrets as [`Token`]s), and [`http_client_builder`] for
//! a reqwest client of one's own. The bottom of the client: it names no other part of it but
//! the [`RetryPolicy`] and the [`Signer`] settings hold.

use super::retry::RetryPolicy;
use super::sign::Signer;
use crate::auth::Scheme;
use crate::error::ErrorShape;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// A secret (a bearer token, an API key, a password): never printed by `Debug`, sent as a
/// sensitive header.
#[derive(Clone)]
pub struct Token(pub(super) Arc<str>);

impl Token {
    /// Wraps a token.
    pub fn new(token: impl Into<String>) -> Self {
        Token(Arc::from(token.into()))
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(\"<redacted>\")")
    }
}

/// Credentials the client holds for one auth scheme of the API.
#[derive(Debug, Clone)]
pub enum Credentials {
    /// A bearer token or an API key.
    Token(Token),
    /// A user name and password.
    Basic {
        /// The user name.
        user: String,
        /// The password.
        password: Token,
    },
}

/// How a generated client is set up. Built by the generated `ClientBuilder`.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The API's base URL (paths are appended to it).
    pub base_url: String,
    /// The API's auth schemes, as the generated crate declares them.
    pub schemes: &'static [Scheme],
    /// Where the API's error bodies carry the status, the message and the violations.
    pub errors: &'static ErrorShape,
    /// The credentials for some of them, by scheme name; a call sends those of the first
    /// scheme its operation accepts that has some.
    pub credentials: Vec<(String, Credentials)>,
    /// Timeout of one attempt.
    pub timeout: Duration,
    /// `User-Agent` header.
    pub user_agent: String,
    /// Retry policy.
    pub retry: RetryPolicy,
    /// Validate request bodies against the spec before sending them.
    pub validate_requests: bool,
    /// Most pages a stream reads before failing.
    pub max_pages: usize,
    /// Largest response body read, in bytes.
    pub max_response_bytes: usize,
    /// Longest a call may take, retries and waits included; `None`: the per-attempt timeout
    /// times the attempts the retry policy allows.
    pub deadline: Option<Duration>,
    /// A caller-provided reqwest client (its own timeouts and pools apply too).
    pub http: Option<reqwest::Client>,
    /// Headers added to every request, by name and value.
    pub default_headers: Vec<(String, String)>,
    /// Signs each request sent to the API's origin, last (see [`Sign`](super::Sign)).
    pub signer: Option<Signer>,
}

/// A reqwest client builder that works with this crate's TLS and redirects: installs ring as
/// rustls' process-wide crypto provider first (unless one is installed), and switches off
/// reqwest's own following of redirects and its `Referer` header
/// (`.redirect(Policy::none()).referer(false)`).
///
/// reqwest is built here without a provider of its own (aws-lc-rs compiles C and doubles the
/// build), so a bare `reqwest::Client::new()` made before any generated client would panic
/// asking for one; start from this builder, set what you need (proxy, pool, certificates,
/// default headers), and hand the result to `.http_client(..)`. The generated client follows
/// redirects itself (see [`Builder::http_client`](super::Builder::http_client)); a client built from this one for other
/// uses gets 3xx answers as they are.
pub fn http_client_builder() -> reqwest::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).referer(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_never_print() {
        assert_eq!(format!("{:?}", Token::new("hunter2")), "Token(\"<redacted>\")");
    }
}
