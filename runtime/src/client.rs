//! Client support (feature `client`): what every generated reqwest client shares.
//!
//! Generated builders turn an operation into a [`Call`] (method, path, query, body); [`Core`]
//! sends it with the bearer token, the timeout and the user agent, retries it when the policy
//! allows, and decodes the answer leniently into the operation's type. Every failure is an
//! [`Error`] that says which kind it is: an API error (with the service's code and message),
//! a transport failure or a timeout, a response that does not decode (with the JSON path of
//! the failing field and a snippet of the body), or a request that fails validation.
//!
//! TLS is rustls with the ring crypto provider (installed as the process default when none
//! is): it builds in about a third of the time of reqwest's default aws-lc-rs (see README).

use crate::auth::{KeyIn, Scheme, SchemeKind};
use crate::defaults::RETRIED_STATUSES;
use crate::error::ErrorShape;
use crate::json::FromJson;
use crate::page::{PageStyle, Paging};
use crate::validate::{Validate, Violation, Violations};
use bytes::Bytes;
use futures_util::stream;
pub use futures_util::stream::Stream;
pub use reqwest;
use reqwest::header::{HeaderValue, RETRY_AFTER};
use std::any::Any;
use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// The default timeout of one attempt: 30 seconds.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(crate::defaults::DEFAULT_TIMEOUT_SECONDS);

/// The items of a paginated list, across pages: `Unpin`, so `while let Some(item) =
/// items.next().await` works as is (with `futures_util::StreamExt`).
pub type Items<T> = std::pin::Pin<Box<dyn Stream<Item = Result<T, Error>> + Send + 'static>>;

/// The default limit on a response body: 8 MiB. A larger body fails with
/// [`Error::TooLarge`] after at most this much was read.
pub use crate::defaults::DEFAULT_MAX_RESPONSE_BYTES;

/// The default guard on the pages a stream reads: 1000.
pub use crate::defaults::DEFAULT_MAX_PAGES;

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
        /// The body as received, any secret the client holds replaced by `<redacted>`.
        body: String,
        /// The response headers (a request id, `Retry-After`, rate limits); boxed, so the
        /// error stays small on the happy path.
        headers: Box<reqwest::header::HeaderMap>,
        /// The body decoded as the error type the spec declares for this status (or for the
        /// API), when it declares one and the body fits it; read it with
        /// [`Error::body_as`]. `None` leaves `body` as the raw bytes as text.
        decoded: Option<Box<dyn Any + Send + Sync>>,
    },
    /// The request did not complete: connection refused or reset, DNS, TLS, ...
    Transport(reqwest::Error),
    /// An attempt took longer than the timeout, or the call (retries and waits included)
    /// longer than its deadline.
    Timeout(Duration),
    /// The response body is larger than the client accepts (see
    /// [`Builder::max_response_bytes`]); at most that much was read.
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
        /// The failing value (or the start of the body), at most 200 characters.
        snippet: String,
    },
    /// The request body fails the spec's constraints (client-side validation is on).
    Invalid(Violations),
    /// A stream read more pages than its guard allows, or the service repeated a cursor.
    Pagination(String),
    /// The client is misconfigured (a base URL that does not parse, ...).
    Config(String),
}

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
            Error::Pagination(message) | Error::Config(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Transport(error) => Some(error),
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

/// An error body decoded as `T`, boxed for [`Error::body_as`] (generated [`ErrorTypes`] call
/// it); `None` when it does not decode.
pub fn decode_error_as<T: FromJson + Send + Sync + 'static>(body: &[u8]) -> Option<Box<dyn Any + Send + Sync>> {
    let (value, _) = decode::<T>(body).ok()?;
    Some(Box::new(value))
}

/// When calls are retried.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 switches retrying off). Default 3.
    pub max_retries: u32,
    /// Wait before the first retry; doubled each time, with full jitter. Default 200 ms.
    pub initial_backoff: Duration,
    /// Longest wait between two attempts computed by backoff. Default 5 s.
    pub max_backoff: Duration,
    /// Longest `Retry-After` honoured; a longer one ends retrying. Default 60 s.
    pub max_retry_after: Duration,
    /// Retry POST and PATCH too (not idempotent: the service may have acted). Default false.
    pub retry_non_idempotent: bool,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
            max_retry_after: Duration::from_secs(60),
            retry_non_idempotent: false,
        }
    }
}

impl RetryPolicy {
    /// No retries.
    pub fn none() -> Self {
        RetryPolicy { max_retries: 0, ..RetryPolicy::default() }
    }

    /// The wait before retry number `retry` (1-based): exponential, capped, full jitter.
    fn backoff(&self, retry: u32) -> Duration {
        let exponential = self.initial_backoff.saturating_mul(2u32.saturating_pow(retry.saturating_sub(1)));
        let capped = exponential.min(self.max_backoff);
        let random = std::collections::hash_map::RandomState::new().build_hasher().finish();
        capped.mul_f64((random % 10_000) as f64 / 10_000.0)
    }
}

/// A secret (a bearer token, an API key, a password): never printed by `Debug`, sent as a
/// sensitive header.
#[derive(Clone)]
pub struct Token(Arc<str>);

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
}

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
            },
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

    fn set_credentials(&mut self, scheme: &str, credentials: Credentials) {
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

    /// Sends requests with this reqwest client (its pool, proxy and TLS settings).
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.settings.http = Some(http);
        self
    }

    /// The client; fails when the base URL does not parse.
    pub fn build(self) -> Result<C, Error> {
        Core::new(self.settings).map(C::from)
    }
}

/// The shared core of a generated client: settings and the HTTP client.
#[derive(Debug, Clone)]
pub struct Core {
    settings: Arc<Settings>,
    http: reqwest::Client,
    base: reqwest::Url,
    /// The credentials, ready to send, by scheme name; and `User-Agent`, built once.
    credentials: Arc<Vec<(&'static str, Presented)>>,
    /// The secrets the credentials hold, as sent: taken out of every error body the client
    /// reports (a service echoing the caller's token must not put it into the caller's logs).
    secrets: Secrets,
    user_agent: HeaderValue,
}

/// The secrets of the credentials, never printed by `Debug`.
#[derive(Clone)]
struct Secrets(Arc<[String]>);

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"<redacted>\"")
    }
}

/// Credentials as a request carries them, built once.
#[derive(Debug, Clone)]
enum Presented {
    /// A header (`Authorization`, or an API key's), marked sensitive.
    Header(reqwest::header::HeaderName, HeaderValue),
    /// A query parameter.
    Query(&'static str, Token),
    /// A cookie.
    Cookie(&'static str, Token),
}

/// One operation call, built by generated code.
#[derive(Debug, Clone)]
pub struct Call {
    /// The operation's name in the spec (for errors and logs).
    pub operation: &'static str,
    /// HTTP method.
    pub method: reqwest::Method,
    /// Path with parameters already percent-encoded.
    pub path: String,
    /// Query parameters, in order; repeated keys for lists.
    pub query: Vec<(&'static str, String)>,
    /// The body.
    pub body: Option<CallBody>,
    /// The auth schemes the operation accepts, by name, in the spec's order (empty for a
    /// public operation): the call sends the credentials of the first the client holds.
    pub auth: &'static [&'static str],
    /// The error types the spec declares for the operation's failure statuses, if any.
    pub errors: Option<ErrorTypes>,
    /// Headers of this call only, by name and value (after the client's default ones):
    /// header parameters and the builder's `.header(..)`.
    pub headers: Vec<(String, String)>,
    /// Cookie parameters, by name and value, sent in one `Cookie` header (values
    /// percent-encoded where a cookie value cannot hold a character).
    pub cookies: Vec<(&'static str, String)>,
}

/// The body of a call.
#[derive(Clone)]
pub enum CallBody {
    /// JSON, serialized.
    Json(Vec<u8>),
    /// Bytes of a media type: a form, a multipart body, text, a file in memory.
    Raw {
        /// The `Content-Type` sent.
        content_type: String,
        /// The bytes.
        bytes: Bytes,
    },
    /// A stream, sent as it is read and only once (never retried).
    Stream {
        /// The `Content-Type` sent.
        content_type: String,
        /// The body, taken by the first attempt.
        stream: Arc<std::sync::Mutex<Option<reqwest::Body>>>,
    },
}

impl fmt::Debug for CallBody {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallBody::Json(bytes) => write!(f, "Json({} bytes)", bytes.len()),
            CallBody::Raw { content_type, bytes } => write!(f, "Raw({content_type}, {} bytes)", bytes.len()),
            CallBody::Stream { content_type, .. } => write!(f, "Stream({content_type})"),
        }
    }
}

/// A raw request body (an operation whose body is `bytes`): bytes in memory, a file or a
/// stream. A file or stream is sent as it is read, never held whole, and never retried.
#[derive(Clone)]
pub struct Upload(UploadBody);

#[derive(Clone)]
enum UploadBody {
    Bytes(Bytes),
    Stream(Arc<std::sync::Mutex<Option<reqwest::Body>>>),
}

impl Upload {
    /// These bytes.
    pub fn bytes(bytes: impl Into<Bytes>) -> Self {
        Upload(UploadBody::Bytes(bytes.into()))
    }

    /// The chunks of `stream`, sent as they come.
    pub fn stream<S, E>(stream: S) -> Self
    where
        S: futures_util::Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync>> + 'static,
    {
        use futures_util::TryStreamExt;
        let frames = stream.map_ok(http_body::Frame::data).map_err(Into::into);
        let body = http_body_util::StreamBody::new(sync_wrapper::SyncStream::new(frames));
        Upload(UploadBody::Stream(Arc::new(std::sync::Mutex::new(Some(reqwest::Body::wrap(body))))))
    }

    /// The file at `path`, read in chunks as it is sent.
    pub async fn file(path: impl AsRef<std::path::Path>) -> std::io::Result<Self> {
        use tokio::io::AsyncReadExt;
        let file = tokio::fs::File::open(path).await?;
        let chunks = stream::unfold(file, |mut file| async move {
            let mut buffer = Vec::with_capacity(64 * 1024);
            match file.read_buf(&mut buffer).await {
                Ok(0) => None,
                Ok(_) => Some((Ok::<Bytes, std::io::Error>(Bytes::from(buffer)), file)),
                Err(error) => Some((Err(error), file)),
            }
        });
        Ok(Upload::stream(chunks))
    }
}

impl From<Vec<u8>> for Upload {
    fn from(bytes: Vec<u8>) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<Bytes> for Upload {
    fn from(bytes: Bytes) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<&'static [u8]> for Upload {
    fn from(bytes: &'static [u8]) -> Self {
        Upload::bytes(bytes)
    }
}

impl From<String> for Upload {
    fn from(text: String) -> Self {
        Upload::bytes(text)
    }
}

impl fmt::Debug for Upload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            UploadBody::Bytes(bytes) => write!(f, "Upload({} bytes)", bytes.len()),
            UploadBody::Stream(_) => f.write_str("Upload(stream)"),
        }
    }
}

/// A raw response body (an operation answering `bytes`), read as it arrives: never held
/// whole, and not bounded by the client's response limit (which applies to JSON).
pub struct Download {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    body: DownloadBody,
}

/// The body of a download: still arriving, or read already (what is left of it).
enum DownloadBody {
    Live(reqwest::Response),
    Read(Option<Bytes>),
}

impl Download {
    /// The `Content-Type` the service answered.
    pub fn content_type(&self) -> Option<&str> {
        self.headers.get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok())
    }

    /// The next chunk of the body, `None` at its end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, Error> {
        match &mut self.body {
            DownloadBody::Live(response) => response.chunk().await.map_err(Error::Transport),
            DownloadBody::Read(rest) => Ok(rest.take()),
        }
    }

    /// The body as a stream of chunks.
    pub fn into_stream(self) -> Pin<Box<dyn Stream<Item = Result<Bytes, Error>> + Send>> {
        Box::pin(stream::unfold(self, |mut download| async move {
            match download.chunk().await {
                Ok(Some(chunk)) => Some((Ok(chunk), download)),
                Ok(None) => None,
                Err(error) => Some((Err(error), download)),
            }
        }))
    }

    /// The whole body in memory, failing with [`Error::TooLarge`] past `limit` bytes.
    pub async fn bytes(mut self, limit: usize) -> Result<Bytes, Error> {
        let mut all = Vec::new();
        while let Some(chunk) = self.chunk().await? {
            if all.len() + chunk.len() > limit {
                return Err(Error::TooLarge { status: self.status, limit });
            }
            all.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(all))
    }
}

impl fmt::Debug for Download {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Download").field("status", &self.status).field("content_type", &self.content_type()).finish()
    }
}

/// What the service answered, with the decoded body: for callers that need the status (an
/// operation may answer more than one) or the headers (a request id, rate limits, an ETag).
#[derive(Debug, Clone)]
pub struct Response<T> {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The decoded body.
    pub body: T,
    /// Parts of the body the client could not read, each left absent in `body` (see
    /// [`crate::NotUnderstood`]); empty when the service sent what the spec describes.
    pub not_understood: Vec<crate::NotUnderstood>,
}

impl<T> Response<T> {
    /// The operation's typed response headers (the generated `<Operation>Headers`), read
    /// leniently: a header missing or not parsing is left unset.
    pub fn headers_as<H: crate::params::HeaderSet>(&self) -> H {
        read_headers(&self.headers)
    }
}

/// Typed headers read from a header map (names looked up without case).
pub fn read_headers<H: crate::params::HeaderSet>(headers: &reqwest::header::HeaderMap) -> H {
    let get = |name: &str| -> Vec<String> {
        headers.get_all(name).iter().filter_map(|value| value.to_str().ok().map(str::to_owned)).collect()
    };
    H::from_lookup(&get)
}

/// A successful answer before decoding: what operations whose statuses answer different
/// bodies decode by status (generated code).
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The response headers.
    pub headers: reqwest::header::HeaderMap,
    /// The body as received.
    pub body: Vec<u8>,
}

/// A reqwest client builder that works with this crate's TLS: installs ring as rustls'
/// process-wide crypto provider first (unless one is installed). reqwest is built here without
/// a provider of its own (aws-lc-rs compiles C and doubles the build), so a bare
/// `reqwest::Client::new()` made before any generated client would panic asking for one;
/// start from this builder, set what you need (proxy, pool, certificates, default headers),
/// and hand the result to `.http_client(..)`.
pub fn http_client_builder() -> reqwest::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
}

impl Core {
    /// Builds the core; installs ring as rustls' crypto provider unless one is installed.
    pub fn new(settings: Settings) -> Result<Self, Error> {
        let mut base_text = settings.base_url.trim_end_matches('/').to_owned();
        base_text.push('/');
        let base = reqwest::Url::parse(&base_text)
            .map_err(|e| Error::Config(format!("the base URL {:?} does not parse: {e}", settings.base_url)))?;
        let http = match &settings.http {
            Some(http) => http.clone(),
            None => http_client_builder()
                .build()
                .map_err(|e| Error::Config(format!("the HTTP client cannot be built: {e}")))?,
        };
        let credentials = Arc::new(present(&settings)?);
        let secrets = Secrets(secrets_of(&settings).into());
        let user_agent = HeaderValue::from_str(&settings.user_agent)
            .map_err(|_| Error::Config("the user agent holds characters a header cannot".into()))?;
        Ok(Core { settings: Arc::new(settings), http, base, credentials, secrets, user_agent })
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Serializes a request body, validating it first when the client validates requests.
    pub fn body<T: serde::Serialize + Validate>(&self, body: &T) -> Result<CallBody, Error> {
        self.check(body)?;
        // A request never carries read-only fields.
        let bytes = crate::json::writing(crate::json::Direction::Request, || serde_json::to_vec(body))
            .map_err(|e| Error::Config(format!("the body cannot be serialized: {e}")))?;
        Ok(CallBody::Json(bytes))
    }

    /// Validates a request body when the client validates requests.
    pub fn check<T: Validate>(&self, body: &T) -> Result<(), Error> {
        if self.settings.validate_requests {
            body.validate().map_err(Error::Invalid)?;
        }
        Ok(())
    }

    /// A form body (`application/x-www-form-urlencoded`) of these fields, lists as repeated
    /// keys (generated code lists them, after [`Core::check`]).
    pub fn form(&self, fields: &[(&'static str, String)]) -> CallBody {
        let mut form = form_urlencoded::Serializer::new(String::new());
        for (name, value) in fields {
            form.append_pair(name, value);
        }
        CallBody::Raw { content_type: "application/x-www-form-urlencoded".into(), bytes: form.finish().into() }
    }

    /// A `multipart/form-data` body of these parts (generated code lists them).
    pub fn multipart(&self, parts: &[crate::media::Part]) -> CallBody {
        let (content_type, bytes) = crate::media::write_multipart(parts);
        CallBody::Raw { content_type, bytes: bytes.into() }
    }

    /// A text body in `media_type`.
    pub fn text(&self, text: &str, media_type: &str) -> CallBody {
        let content_type =
            if media_type.contains("charset") { media_type.to_owned() } else { format!("{media_type}; charset=utf-8") };
        CallBody::Raw { content_type, bytes: Bytes::copy_from_slice(text.as_bytes()) }
    }

    /// A raw body in `media_type`, from an [`Upload`].
    pub fn upload(&self, upload: &Upload, media_type: &str) -> CallBody {
        match &upload.0 {
            UploadBody::Bytes(bytes) => CallBody::Raw { content_type: media_type.to_owned(), bytes: bytes.clone() },
            UploadBody::Stream(stream) => {
                CallBody::Stream { content_type: media_type.to_owned(), stream: Arc::clone(stream) }
            }
        }
    }

    /// Sends a call and decodes its answer as `T`.
    pub async fn send<T: FromJson>(&self, call: Call) -> Result<T, Error> {
        let answer = self.execute(&call).await?;
        decode(&answer.body).map(|(body, _)| body)
    }

    /// Sends a call whose answer has no body.
    pub async fn send_empty(&self, call: Call) -> Result<(), Error> {
        self.execute(&call).await.map(|_| ())
    }

    /// Sends a call; the decoded body with the status and headers.
    pub async fn send_with_response<T: FromJson>(&self, call: Call) -> Result<Response<T>, Error> {
        let answer = self.execute(&call).await?;
        let (body, not_understood) = decode(&answer.body)?;
        Ok(Response { status: answer.status, headers: answer.headers, body, not_understood })
    }

    /// Sends a call; the answer undecoded (for operations whose statuses answer different
    /// bodies: generated code decodes by status with [`decode_body`]).
    pub async fn send_raw(&self, call: Call) -> Result<Answer, Error> {
        self.execute(&call).await
    }

    /// Sends a call whose answer has no body; its status and headers.
    pub async fn send_empty_with_response(&self, call: Call) -> Result<Response<()>, Error> {
        let answer = self.execute(&call).await?;
        Ok(Response { status: answer.status, headers: answer.headers, body: (), not_understood: Vec::new() })
    }

    /// Every item of every page, following the operation's pagination (`paging`) with the
    /// original query; fails after `max_pages` pages or when the service repeats a cursor.
    pub fn stream<I>(&self, call: Call, paging: &'static Paging) -> Items<I>
    where
        I: FromJson + Send + 'static,
    {
        // Only decoding a page's items is generic; following the pages is `Pager`'s (compiled
        // once, not once per paginated operation).
        struct State<I> {
            pager: Pager,
            items: std::vec::IntoIter<I>,
        }
        let first = call.query.iter().find(|(key, _)| *key == paging.cursor).map(|(_, value)| value.clone());
        let pager = Pager {
            core: self.clone(),
            call,
            paging,
            next: Some(Next::First),
            position: first,
            failure: None,
            seen: Vec::new(),
            pages: 0,
        };
        let state = State::<I> { pager, items: Vec::new().into_iter() };
        Box::pin(stream::unfold(state, move |mut state| async move {
            loop {
                if let Some(item) = state.items.next() {
                    return Some((Ok(item), state));
                }
                let items = match state.pager.next_page().await? {
                    Ok((items, page)) => decode_items::<I>(items, &page, state.pager.paging.items),
                    Err(error) => Err(error),
                };
                match items {
                    Ok(items) => state.items = items.into_iter(),
                    Err(error) => return Some((Err(error), state)),
                }
            }
        }))
    }

    /// Sends a call, retrying as the policy allows; the body of a 2xx answer.
    async fn execute(&self, call: &Call) -> Result<Answer, Error> {
        match self.run(call, false).await? {
            Outcome::Read(answer) => Ok(answer),
            Outcome::Open(download) => Ok(Answer {
                status: download.status,
                headers: download.headers.clone(),
                body: download.bytes(self.settings.max_response_bytes).await?.to_vec(),
            }),
        }
    }

    /// Sends a call whose answer is raw bytes, retrying as the policy allows until a success
    /// starts arriving; its body is read by the caller, as it comes.
    pub async fn send_download(&self, call: Call) -> Result<Download, Error> {
        Ok(match self.run(&call, true).await? {
            Outcome::Open(download) => download,
            Outcome::Read(answer) => Download {
                status: answer.status,
                headers: answer.headers,
                body: DownloadBody::Read(Some(Bytes::from(answer.body))),
            },
        })
    }

    /// Sends a call whose answer is text (at most the response limit).
    pub async fn send_text(&self, call: Call) -> Result<String, Error> {
        let answer = self.execute(&call).await?;
        String::from_utf8(answer.body).map_err(|error| Error::Decode {
            path: String::new(),
            message: "the text is not UTF-8".into(),
            snippet: snippet(&String::from_utf8_lossy(error.as_bytes())),
        })
    }

    /// Sends a call, retrying as the policy allows: a 2xx answer read whole, or (with `open`)
    /// before its body.
    async fn run(&self, call: &Call, open: bool) -> Result<Outcome, Error> {
        let policy = &self.settings.retry;
        let idempotent = matches!(
            call.method,
            reqwest::Method::GET
                | reqwest::Method::HEAD
                | reqwest::Method::OPTIONS
                | reqwest::Method::PUT
                | reqwest::Method::DELETE
        );
        // A streamed body is sent once: it cannot be retried.
        let streamed = matches!(call.body, Some(CallBody::Stream { .. }));
        let retryable = (idempotent || policy.retry_non_idempotent) && !streamed;
        let deadline = self.deadline();
        let started = tokio::time::Instant::now();
        let mut retry = 0;
        loop {
            let Some(left) = deadline.checked_sub(started.elapsed()).filter(|left| !left.is_zero()) else {
                return Err(Error::Timeout(deadline));
            };
            let outcome = self.attempt(call, left, open).await;
            let wait = match &outcome {
                Attempt::Done(_) | Attempt::Open(_) => None,
                Attempt::Status { status, retry_after, .. } if RETRIED_STATUSES.contains(status) => match retry_after {
                    Some(after) if *after > policy.max_retry_after => None,
                    Some(after) => Some(*after),
                    None => Some(policy.backoff(retry + 1)),
                },
                Attempt::Status { .. } => None,
                Attempt::Failed(Error::Transport(error)) if error.is_connect() => Some(policy.backoff(retry + 1)),
                Attempt::Failed(_) => None,
            };
            // A wait that would end past the deadline is not started: the caller gets the
            // answer now rather than the same answer later.
            let within_deadline = |wait: &Duration| started.elapsed() + *wait < deadline;
            match wait {
                Some(wait) if retryable && retry < policy.max_retries && within_deadline(&wait) => {
                    retry += 1;
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    return outcome
                        .into_result(self.settings.errors, call.errors)
                        .map_err(|e| redact(e, &self.secrets.0));
                }
            }
        }
    }

    /// The credentials a call sends: those of the first scheme its operation accepts that the
    /// client holds; `None` for a public operation.
    fn presented(&self, call: &Call) -> Result<Option<&Presented>, Error> {
        if call.auth.is_empty() {
            return Ok(None);
        }
        let held = call.auth.iter().find_map(|scheme| self.credentials.iter().find(|(name, _)| name == scheme));
        match held {
            Some((_, presented)) => Ok(Some(presented)),
            None => Err(Error::Config(format!(
                "`{}` needs the credentials of {}; give them to the client builder",
                call.operation,
                call.auth.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(" or ")
            ))),
        }
    }

    /// The deadline of one call: as set, or the timeout times the attempts allowed.
    fn deadline(&self) -> Duration {
        let attempts = self.settings.retry.max_retries.saturating_add(1);
        self.settings.deadline.unwrap_or_else(|| self.settings.timeout.saturating_mul(attempts))
    }

    /// One attempt, within `left` of the call's deadline; with `open`, a success is answered
    /// before its body is read ([`Attempt::Open`]).
    async fn attempt(&self, call: &Call, left: Duration, open: bool) -> Attempt {
        let timeout = self.settings.timeout.min(left);
        let mut url = match self.base.join(call.path.trim_start_matches('/')) {
            Ok(url) => url,
            Err(e) => {
                return Attempt::Failed(Error::Config(format!(
                    "the path {:?} does not join the base URL: {e}",
                    call.path
                )));
            }
        };
        let presented = match self.presented(call) {
            Ok(presented) => presented,
            Err(error) => return Attempt::Failed(error),
        };
        let key_in_query = match presented {
            Some(Presented::Query(name, key)) => Some((*name, key)),
            _ => None,
        };
        if !call.query.is_empty() || key_in_query.is_some() {
            let mut pairs = url.query_pairs_mut();
            for (key, value) in &call.query {
                pairs.append_pair(key, value);
            }
            if let Some((name, key)) = key_in_query {
                pairs.append_pair(name, &key.0);
            }
        }
        let mut request = self
            .http
            .request(call.method.clone(), url)
            .header(reqwest::header::USER_AGENT, self.user_agent.clone())
            .timeout(timeout);
        if !call.headers.iter().any(|(name, _)| name.eq_ignore_ascii_case("accept")) {
            request = request.header(reqwest::header::ACCEPT, "application/json");
        }
        match &call.body {
            None => {}
            Some(CallBody::Json(bytes)) => {
                request = request.header(reqwest::header::CONTENT_TYPE, "application/json").body(bytes.clone());
            }
            Some(CallBody::Raw { content_type, bytes }) => {
                request = request.header(reqwest::header::CONTENT_TYPE, content_type.as_str()).body(bytes.clone());
            }
            Some(CallBody::Stream { content_type, stream }) => {
                let Some(body) = stream.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() else {
                    return Attempt::Failed(Error::Config(format!(
                        "the streamed body of `{}` was sent already: a stream is sent once",
                        call.operation
                    )));
                };
                request = request.header(reqwest::header::CONTENT_TYPE, content_type.as_str()).body(body);
            }
        }
        if let Some(Presented::Header(name, value)) = presented {
            request = request.header(name.clone(), value.clone());
        }
        let key_in_cookie = match presented {
            Some(Presented::Cookie(name, key)) => Some(format!("{name}={}", cookie_value(&key.0))),
            _ => None,
        };
        if !call.cookies.is_empty() || key_in_cookie.is_some() {
            let pairs: Vec<String> = call
                .cookies
                .iter()
                .map(|(name, value)| format!("{name}={}", cookie_value(value)))
                .chain(key_in_cookie)
                .collect();
            match HeaderValue::from_str(&pairs.join("; ")) {
                Ok(cookie) => request = request.header(reqwest::header::COOKIE, cookie),
                Err(_) => return Attempt::Failed(Error::Config("a cookie value is not valid".into())),
            }
        }
        for (name, value) in self.settings.default_headers.iter().chain(&call.headers) {
            let name = reqwest::header::HeaderName::from_bytes(name.as_bytes());
            let value = HeaderValue::from_str(value);
            let (Ok(name), Ok(value)) = (name, value) else {
                return Attempt::Failed(Error::Config(format!(
                    "a header of `{}` is not valid: names are tokens, values visible ASCII",
                    call.operation
                )));
            };
            request = request.header(name, value);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) if error.is_timeout() => return Attempt::Failed(Error::Timeout(timeout)),
            Err(error) => return Attempt::Failed(Error::Transport(error)),
        };
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        if open && (200..300).contains(&status) {
            return Attempt::Open(Download { status, headers, body: DownloadBody::Live(response) });
        }
        let retry_after = headers.get(RETRY_AFTER).and_then(parse_retry_after);
        let body = match read_body(response, self.settings.max_response_bytes).await {
            Ok(body) => body,
            Err(BodyError::TooLarge) => {
                return Attempt::Failed(Error::TooLarge { status, limit: self.settings.max_response_bytes });
            }
            Err(BodyError::Http(error)) if error.is_timeout() => return Attempt::Failed(Error::Timeout(timeout)),
            Err(BodyError::Http(error)) => return Attempt::Failed(Error::Transport(error)),
        };
        if (200..300).contains(&status) {
            Attempt::Done(Answer { status, headers, body })
        } else {
            Attempt::Status { status, retry_after, headers, body }
        }
    }
}

/// A success, read or open.
enum Outcome {
    Read(Answer),
    Open(Download),
}

enum Attempt {
    Done(Answer),
    Open(Download),
    Status { status: u16, retry_after: Option<Duration>, headers: reqwest::header::HeaderMap, body: Vec<u8> },
    Failed(Error),
}

impl Attempt {
    fn into_result(self, shape: &ErrorShape, types: Option<ErrorTypes>) -> Result<Outcome, Error> {
        match self {
            Attempt::Done(answer) => Ok(Outcome::Read(answer)),
            Attempt::Open(download) => Ok(Outcome::Open(download)),
            Attempt::Status { status, headers, body, .. } => Err(api_error(status, headers, body, shape, types)),
            Attempt::Failed(error) => Err(error),
        }
    }
}

enum BodyError {
    TooLarge,
    Http(reqwest::Error),
}

/// Reads a response body of at most `limit` bytes, chunk by chunk into one buffer: a body
/// declared or found larger fails as soon as that is known, so memory stays under the limit
/// whatever the service sends (an endless body, a wrong `Content-Length`).
async fn read_body(mut response: reqwest::Response, limit: usize) -> Result<Vec<u8>, BodyError> {
    let declared = response.content_length().unwrap_or(0);
    if declared > limit as u64 {
        return Err(BodyError::TooLarge);
    }
    let mut body = Vec::with_capacity(declared as usize);
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Http)? {
        if body.len() + chunk.len() > limit {
            return Err(BodyError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// The error of a failure status: what the API's error shape finds in the body (the raw text
/// as the message otherwise), and the body decoded as the error type declared for the status.
fn api_error(
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

/// The shortest secret redacted: shorter ones would blank out ordinary words of a message.
const SHORTEST_REDACTED: usize = 4;

/// Every secret the settings hold, as a request carries it: tokens and keys, and a basic
/// scheme's password and its encoded `user:password` pair.
fn secrets_of(settings: &Settings) -> Vec<String> {
    use base64::Engine;
    let mut secrets = Vec::new();
    for (_, credentials) in &settings.credentials {
        match credentials {
            Credentials::Token(token) => secrets.push(token.0.to_string()),
            Credentials::Basic { user, password } => {
                secrets.push(password.0.to_string());
                secrets.push(base64::engine::general_purpose::STANDARD.encode(format!("{user}:{}", password.0)));
            }
        }
    }
    secrets.retain(|secret| secret.len() >= SHORTEST_REDACTED);
    // Longest first, so a secret holding another is replaced whole.
    secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
    secrets
}

/// The error with every secret in the text of a received body (message, violations, raw
/// body) replaced by `<redacted>`; the decoded body is left as the service sent it.
fn redact(error: Error, secrets: &[String]) -> Error {
    let clean = |text: String| {
        secrets.iter().fold(text, |text, secret| {
            if text.contains(secret.as_str()) { text.replace(secret.as_str(), "<redacted>") } else { text }
        })
    };
    match error {
        Error::Api { status, code, message, violations, body, headers, decoded } => Error::Api {
            status,
            code,
            message: clean(message),
            violations: violations
                .into_iter()
                .map(|violation| Violation { path: clean(violation.path), message: clean(violation.message) })
                .collect(),
            body: clean(body),
            headers,
            decoded,
        },
        other => other,
    }
}

/// `Retry-After` as delta-seconds or an HTTP date.
fn parse_retry_after(value: &HeaderValue) -> Option<Duration> {
    let text = value.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(std::time::SystemTime::now()).unwrap_or_default())
}

/// Decodes a response body leniently (what was not understood kept apart), locating the
/// first problem when it does not decode at all.
/// Follows the pages of a stream, in any [`PageStyle`]: which page to ask for next, the page
/// guard, a repeated cursor, a `Link` leading outside the API.
struct Pager {
    core: Core,
    call: Call,
    paging: &'static Paging,
    /// The next page to read; `None` when done.
    next: Option<Next>,
    /// The cursor parameter's value of the page just read (offsets and page numbers count
    /// from it).
    position: Option<String>,
    /// An error to yield once the items read so far are out.
    failure: Option<Error>,
    /// Every cursor or link followed, to refuse a repeated one.
    seen: Vec<String>,
    pages: usize,
}

/// Where the next page is.
enum Next {
    /// The call as given.
    First,
    /// The call with the cursor parameter set to this value.
    Position(String),
    /// This path and query, relative to the API's base URL (from a `Link` header).
    Link(String),
}

impl Pager {
    /// The items of the next page (a JSON array) with the page's body as received, an error,
    /// or `None` when every page was read.
    async fn next_page(&mut self) -> Option<Result<(serde_json::Value, Vec<u8>), Error>> {
        if let Some(error) = self.failure.take() {
            return Some(Err(error));
        }
        let next = self.next.take()?;
        if self.pages >= self.core.settings.max_pages {
            let message = format!("stopped after {} pages (the client's page guard)", self.pages);
            return Some(Err(Error::Pagination(message)));
        }
        self.pages += 1;
        let mut call = self.call.clone();
        match next {
            Next::First => {}
            Next::Position(value) => {
                call.query.retain(|(key, _)| *key != self.paging.cursor);
                call.query.push((self.paging.cursor, value.clone()));
                self.position = Some(value);
            }
            Next::Link(relative) => {
                call.path = relative;
                call.query.clear();
            }
        }
        let answer = match self.core.execute(&call).await {
            Ok(answer) => answer,
            Err(error) => return Some(Err(error)),
        };
        Some(self.read(answer))
    }

    /// The items of a page, and where the next one is.
    fn read(&mut self, answer: Answer) -> Result<(serde_json::Value, Vec<u8>), Error> {
        let mut body = parse_body(&answer.body)?;
        let items = if self.paging.items.is_empty() {
            body.take()
        } else {
            body.pointer_mut(self.paging.items).map(serde_json::Value::take).unwrap_or_default()
        };
        let Some(list) = items.as_array() else {
            return Err(Error::Decode {
                path: self.paging.items.to_owned(),
                message: "the items of the page are not a list".into(),
                snippet: snippet(&items.to_string()),
            });
        };
        let count = list.len();
        let next = match self.paging.style {
            PageStyle::Cursor { next } => body.pointer(next).and_then(text_of).map(Next::Position),
            PageStyle::HasMore { has_more, item_id } => {
                let more = body.pointer(has_more).and_then(serde_json::Value::as_bool) == Some(true);
                let last = list.last().and_then(|item| item.pointer(item_id)).and_then(text_of);
                last.filter(|_| more).map(Next::Position)
            }
            PageStyle::Offset => {
                let at = self.position.as_deref().and_then(|p| p.parse::<u64>().ok()).unwrap_or(0);
                (count > 0).then(|| Next::Position((at + count as u64).to_string()))
            }
            PageStyle::Page => {
                let at = self.position.as_deref().and_then(|p| p.parse::<u64>().ok()).unwrap_or(1);
                (count > 0).then(|| Next::Position((at + 1).to_string()))
            }
            PageStyle::Link => match next_link(&answer.headers).map(|link| self.within_api(&link)) {
                Some(Ok(relative)) => Some(Next::Link(relative)),
                Some(Err(error)) => {
                    self.failure = Some(error);
                    None
                }
                None => None,
            },
        };
        self.follow(next);
        Ok((items, answer.body))
    }

    /// A link's target as a path and query relative to the API's base URL; a link to another
    /// host or outside the base path is refused (the client would send its credentials there).
    fn within_api(&self, link: &str) -> Result<String, Error> {
        let url = self
            .core
            .base
            .join(link)
            .map_err(|e| Error::Pagination(format!("the next page's link {link:?} does not parse: {e}")))?;
        match url.as_str().strip_prefix(self.core.base.as_str()) {
            Some(relative) => Ok(relative.to_owned()),
            None => Err(Error::Pagination(format!("the next page's link leads outside the API: {url}"))),
        }
    }

    /// Records where the next page is; one seen before ends the stream with an error after
    /// this page's items.
    fn follow(&mut self, next: Option<Next>) {
        let key = match &next {
            Some(Next::Position(value) | Next::Link(value)) => value.clone(),
            _ => return,
        };
        if self.seen.contains(&key) {
            self.failure = Some(Error::Pagination(format!("the service repeated the page cursor {key:?}")));
        } else {
            self.seen.push(key);
            self.next = next;
        }
    }
}

/// A cursor as text: a non-empty string or a number.
fn text_of(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(text) if !text.is_empty() => Some(text.clone()),
        serde_json::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The target of the `Link` header's `rel="next"` link (RFC 8288), if any.
fn next_link(headers: &reqwest::header::HeaderMap) -> Option<String> {
    for value in headers.get_all(reqwest::header::LINK) {
        let Ok(text) = value.to_str() else { continue };
        let mut rest = text;
        while let Some(start) = rest.find('<') {
            let after = &rest[start + 1..];
            let end = after.find('>')?;
            let target = &after[..end];
            let params_end = after[end..].find('<').map_or(after.len(), |i| end + i);
            let params = &after[end + 1..params_end];
            let is_next = params.split(';').any(|param| {
                let Some((key, value)) = param.split_once('=') else { return false };
                key.trim().eq_ignore_ascii_case("rel")
                    && value.trim().trim_matches('"').split_whitespace().any(|rel| rel.eq_ignore_ascii_case("next"))
            });
            if is_next {
                return Some(target.to_owned());
            }
            rest = &after[params_end..];
        }
    }
    None
}

/// A page's items decoded leniently; a failure is located in the page's body (`page`), the
/// items being at the pointer `at` in it.
fn decode_items<I: FromJson>(items: serde_json::Value, page: &[u8], at: &str) -> Result<Vec<I>, Error> {
    crate::json::decode(items, crate::json::Mode::Lenient).map_err(|violations| {
        let located = violations.0.into_iter().map(|v| Violation::new(format!("{at}{}", v.path), v.message)).collect();
        decode_error(page, crate::validate::Violations(located))
    })
}

/// A response body decoded leniently as `T` (generated code decoding by status).
pub fn decode_body<T: FromJson>(bytes: &[u8]) -> Result<T, Error> {
    decode(bytes).map(|(body, _)| body)
}

fn decode<T: FromJson>(bytes: &[u8]) -> Result<(T, Vec<crate::NotUnderstood>), Error> {
    let value = parse_body(bytes)?;
    let reread = || serde_json::from_slice(bytes).unwrap_or_default();
    crate::json::decode_reporting(value, reread).map_err(|violations| decode_error(bytes, violations))
}

/// The body as JSON (the part of decoding that does not depend on the type).
fn parse_body(bytes: &[u8]) -> Result<serde_json::Value, Error> {
    serde_json::from_slice(bytes).map_err(|e| Error::Decode {
        path: String::new(),
        message: format!("not JSON: {e}"),
        snippet: snippet(&String::from_utf8_lossy(bytes)),
    })
}

/// The error for a body that does not decode: the first violation, with the part of the body
/// it concerns.
fn decode_error(bytes: &[u8], violations: crate::validate::Violations) -> Error {
    let first = violations.0.into_iter().next().unwrap_or_else(|| Violation::new("", "does not decode"));
    // The value was consumed while decoding; read it again, on this failure path only.
    let value: serde_json::Value = serde_json::from_slice(bytes).unwrap_or_default();
    let near = value.pointer(&first.path).map_or_else(|| value.to_string(), ToString::to_string);
    Error::Decode { path: first.path, message: first.message, snippet: snippet(&near) }
}

fn snippet(text: &str) -> String {
    let mut cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

/// Each credential of the settings as a request carries it; a scheme the API does not declare,
/// credentials of the wrong kind, or a secret a header cannot hold fail with [`Error::Config`].
fn present(settings: &Settings) -> Result<Vec<(&'static str, Presented)>, Error> {
    let mut presented = Vec::new();
    for (name, credentials) in &settings.credentials {
        let Some(scheme) = settings.schemes.iter().find(|s| s.name == name) else {
            let known: Vec<&str> = settings.schemes.iter().map(|s| s.name).collect();
            return Err(Error::Config(format!(
                "the API has no auth scheme `{name}` (it has: {})",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            )));
        };
        let sensitive = |text: &str| {
            let mut value = HeaderValue::from_str(text)
                .map_err(|_| Error::Config(format!("the credentials of `{name}` hold characters a header cannot")))?;
            value.set_sensitive(true);
            Ok::<_, Error>(value)
        };
        let how = match (scheme.kind, credentials) {
            (SchemeKind::Bearer, Credentials::Token(token)) => {
                Presented::Header(reqwest::header::AUTHORIZATION, sensitive(&format!("Bearer {}", token.0))?)
            }
            (SchemeKind::Basic, Credentials::Basic { user, password }) => {
                use base64::Engine;
                let pair = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{}", password.0));
                Presented::Header(reqwest::header::AUTHORIZATION, sensitive(&format!("Basic {pair}"))?)
            }
            (SchemeKind::ApiKey { location: KeyIn::Header, name: header }, Credentials::Token(key)) => {
                let header = reqwest::header::HeaderName::from_bytes(header.as_bytes())
                    .map_err(|_| Error::Config(format!("`{header}` is not a header name")))?;
                Presented::Header(header, sensitive(&key.0)?)
            }
            (SchemeKind::ApiKey { location: KeyIn::Query, name: param }, Credentials::Token(key)) => {
                Presented::Query(param, key.clone())
            }
            (SchemeKind::ApiKey { location: KeyIn::Cookie, name: cookie }, Credentials::Token(key)) => {
                Presented::Cookie(cookie, key.clone())
            }
            (SchemeKind::Basic, Credentials::Token(_)) => {
                return Err(Error::Config(format!("`{name}` is a basic scheme: give it a user and password")));
            }
            (_, Credentials::Basic { .. }) => {
                return Err(Error::Config(format!("`{name}` takes a token, not a user and password")));
            }
        };
        presented.push((scheme.name, how));
    }
    Ok(presented)
}

/// A cookie value as RFC 6265 allows it: `%`, controls, space, `"`, `,`, `;`, backslash and
/// non-ASCII percent-encoded (the generated server decodes them).
fn cookie_value(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            0x21 | 0x23..=0x24 | 0x26..=0x2B | 0x2D..=0x3A | 0x3C..=0x5B | 0x5D..=0x7E => encoded.push(byte as char),
            other => encoded.push_str(&format!("%{other:02X}")),
        }
    }
    encoded
}

/// Percent-encodes a path parameter (everything but unreserved characters; `.` and `..` in
/// full, so a value can never climb out of its path).
pub fn segment(value: &str) -> String {
    if value == "." || value == ".." {
        return value.replace('.', "%2E");
    }
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => encoded.push(byte as char),
            other => encoded.push_str(&format!("%{other:02X}")),
        }
    }
    encoded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_is_capped_and_jittered() {
        let policy = RetryPolicy::default();
        for retry in 1..8 {
            let wait = policy.backoff(retry);
            let ceiling = (policy.initial_backoff * 2u32.pow(retry - 1)).min(policy.max_backoff);
            assert!(wait <= ceiling, "retry {retry}: {wait:?} > {ceiling:?}");
        }
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(parse_retry_after(&HeaderValue::from_static("2")), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(&HeaderValue::from_static("Wed, 21 Oct 2015 07:28:00 GMT")), Some(Duration::ZERO));
        assert_eq!(parse_retry_after(&HeaderValue::from_static("soon")), None);
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(segment("a b/c?d"), "a%20b%2Fc%3Fd");
        assert_eq!(segment("é"), "%C3%A9");
        assert_eq!(segment(".."), "%2E%2E");
        assert_eq!(segment("a.b"), "a.b");
    }

    #[test]
    fn tokens_never_print() {
        assert_eq!(format!("{:?}", Token::new("hunter2")), "Token(\"<redacted>\")");
    }

    #[test]
    fn decode_errors_carry_the_pointer_and_the_value() {
        let error = decode::<crate::Page<i64>>(br#"{"count": 1, "items": [1, "two"]}"#).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the response does not decode at /items/1: expected an integer, found the string \"two\" (near \"two\")"
        );
    }
}
