//! Server support (feature `server`): what every generated axum router shares.
//!
//! A request goes through the same steps, in order, before any handler runs:
//!
//! 1. **Authentication**: `Authorization: Bearer <token>` must be present and well formed
//!    (401 otherwise); the token goes to the service's [`Authenticator`], which may refuse
//!    with 401 or 403.
//! 2. **Body transport**: a body larger than the limit answers 413; a body that is not
//!    `application/json` answers 415.
//! 3. **Extraction and validation**: path and query parameters are parsed and checked, the
//!    body is parsed as JSON (400 when it is not), decoded strictly and validated. Every
//!    problem found is reported in one 400 whose `violations` name each one: body fields by
//!    JSON pointer (`/title`), parameters by location and name (`query.limit`).
//!
//! Then the handler runs; its `Ok` value is answered with the operation's status, its `Err`
//! with the error body. A panic in a handler answers 500 and the server keeps serving.
//! Unknown routes answer 404 and known routes with another method 405, with the error body.
//!
//! One handler type serves every route, so axum's generic machinery is compiled once per
//! service rather than once per operation.

mod routes;

pub use routes::{Access, Answer, Bearer, MissingOperations, Public, Reply, Routes, empty, json, reject};

use crate::error::ErrorBody;
use crate::json::{FromJson, Mode};
use crate::validate::{Validate, Validator, Violation};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};

/// The default limit on request bodies: 2 MiB (spec gap `max-body-size`).
pub const DEFAULT_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// A failure answered with the error body `{"error": {"code", "message", "violations"?}}`.
///
/// Handlers return it for the failure cases of the spec; the router builds it for every
/// rejection before a handler runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

impl ApiError {
    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, body: ErrorBody::new(status.as_u16(), message) }
    }

    /// 400: the request is invalid or the state change is refused.
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 400 listing every violation.
    pub fn invalid(violations: Vec<Violation>) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, body: ErrorBody::invalid("the request is invalid", violations) }
    }

    /// 401: credentials are missing, malformed or not accepted.
    pub fn unauthorized(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    /// 403: the caller may not do this.
    pub fn forbidden(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::FORBIDDEN, message)
    }

    /// 404: no matching resource.
    pub fn not_found(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 409: the request conflicts with the current state.
    pub fn conflict(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// 500: an unexpected error.
    pub fn internal(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// 501: the service does not implement the operation (the default of every handler).
    pub fn not_implemented(operation: &str) -> Self {
        ApiError::new(StatusCode::NOT_IMPLEMENTED, format!("the operation `{operation}` is not implemented"))
    }

    /// The status answered.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The body answered.
    pub fn body(&self) -> &ErrorBody {
        &self.body
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status.as_u16(), self.body.error.message)
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let bytes = serde_json::to_vec(&self.body).unwrap_or_default();
        let mut response = (self.status, [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes)
            .into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// Checks bearer tokens. The service implements it; the router calls it on every request,
/// before any handler, with the token of the `Authorization: Bearer <token>` header.
pub trait Authenticator: Send + Sync + 'static {
    /// Who the token belongs to, handed to every handler in its [`Context`].
    type Principal: Clone + Send + Sync + 'static;

    /// Accepts the token and says whose it is, or refuses it with 401 (unknown or expired
    /// token) or 403 (known, but not allowed here).
    fn authenticate(&self, token: &str) -> impl Future<Output = Result<Self::Principal, ApiError>> + Send;
}

/// What a handler knows about the request beyond its parameters and body, and how it shapes
/// its response beyond the body.
///
/// `P` is the principal: what the [`Authenticator`] returned, or [`Anonymous`] for a public
/// operation. `S` is the operation's status type: an enumeration of the success statuses the
/// spec declares when it declares more than one (so [`Context::set_status`] cannot choose
/// another), [`OnlyStatus`] otherwise.
pub struct Context<P, S = OnlyStatus> {
    /// Who made the request, as the [`Authenticator`] said ([`Anonymous`] on public operations).
    pub principal: P,
    /// The request headers.
    pub headers: HeaderMap,
    /// The operation's name in the spec.
    pub operation: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The route that matched, as the spec writes it (`/v1/spaces/{spaceId}`).
    pub path: &'static str,
    /// What middleware put in the request's extensions (a request id, a tracing span, a
    /// tenant, ...), read with `context.extensions.get::<T>()`.
    pub extensions: axum::http::Extensions,
    response: ResponseHandle,
    status: PhantomData<fn() -> S>,
}

/// The principal of a public operation: nobody was authenticated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Anonymous;

/// The status type of an operation whose spec declares one success status: the response
/// answers it, and [`Context::set_status`] is not available.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct OnlyStatus;

/// The success statuses of an operation that declares several (generated enumerations).
pub trait Status: Copy + Send + Sync + 'static {
    /// The HTTP status code.
    fn code(self) -> u16;
}

/// What a handler set on its response, shared between its [`Context`] and the router.
#[derive(Clone, Default)]
struct ResponseHandle(Arc<Mutex<ResponseParts>>);

#[derive(Default)]
struct ResponseParts {
    status: Option<u16>,
    headers: HeaderMap,
}

impl ResponseHandle {
    fn with<R>(&self, f: impl FnOnce(&mut ResponseParts) -> R) -> R {
        // A handler that panicked while holding the lock left nothing half-written that
        // matters: the parts are plain values.
        f(&mut self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    fn take(&self) -> (Option<u16>, HeaderMap) {
        self.with(|parts| (parts.status.take(), std::mem::take(&mut parts.headers)))
    }
}

impl<P, S> Context<P, S> {
    /// A context for calling a handler directly, in unit tests: no headers or extensions,
    /// `GET /`, operation `test`.
    pub fn new(principal: P) -> Self {
        Context {
            principal,
            headers: HeaderMap::new(),
            operation: "test",
            method: Method::GET,
            path: "/",
            extensions: axum::http::Extensions::new(),
            response: ResponseHandle::default(),
            status: PhantomData,
        }
    }

    /// The caller's address, when the server records it ([`crate::serve::serve`] does; so
    /// does axum's `into_make_service_with_connect_info`).
    pub fn remote_addr(&self) -> Option<std::net::SocketAddr> {
        self.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|info| info.0)
    }

    /// Sets a response header, replacing any value set before (`ETag`, `Location`, a
    /// rate-limit header). Headers are sent with errors too, so a 429 can say when to retry.
    pub fn insert_response_header(&self, name: HeaderName, value: HeaderValue) {
        self.response.with(|parts| parts.headers.insert(name, value));
    }

    /// Adds a response header, keeping values set before (`Set-Cookie`, `Link`).
    pub fn append_response_header(&self, name: HeaderName, value: HeaderValue) {
        self.response.with(|parts| parts.headers.append(name, value));
    }

    /// The headers set so far (for tests of handlers).
    pub fn response_headers(&self) -> HeaderMap {
        self.response.with(|parts| parts.headers.clone())
    }

    /// The status chosen with [`Context::set_status`], if any (for tests of handlers).
    pub fn response_status(&self) -> Option<u16> {
        self.response.with(|parts| parts.status)
    }
}

impl<P, S: Status> Context<P, S> {
    /// Answers `status` instead of the operation's default; only statuses the spec declares
    /// for the operation can be named. Applies to a successful answer only.
    pub fn set_status(&self, status: S) {
        self.response.with(|parts| parts.status = Some(status.code()));
    }
}

impl<P: Clone, S> Clone for Context<P, S> {
    fn clone(&self) -> Self {
        Context {
            principal: self.principal.clone(),
            headers: self.headers.clone(),
            operation: self.operation,
            method: self.method.clone(),
            path: self.path,
            extensions: self.extensions.clone(),
            response: self.response.clone(),
            status: PhantomData,
        }
    }
}

impl<P: fmt::Debug, S> fmt::Debug for Context<P, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("principal", &self.principal)
            .field("operation", &self.operation)
            .field("method", &self.method)
            .field("path", &self.path)
            .finish_non_exhaustive() // Headers hold the caller's token: never printed.
    }
}

/// The default limit on a request's path and query: 8 KiB (longer answers 414).
pub const DEFAULT_MAX_URI_BYTES: usize = 8 * 1024;

/// The default limit on a request's headers, names and values together: 64 KiB (more
/// answers 431).
pub const DEFAULT_MAX_HEADER_BYTES: usize = 64 * 1024;

/// The default limit on the number of query parameters: 256 (more answers 400).
pub const DEFAULT_MAX_QUERY_PARAMS: usize = 256;

/// Router settings: the limits checked before anything else is read. Every one answers with
/// the error body; build with `ServerConfig { body_limit: .., ..Default::default() }`.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body accepted, in bytes (default [`DEFAULT_BODY_LIMIT`], 2 MiB); a
    /// larger one answers 413, before it is read when `Content-Length` declares it (so an
    /// `Expect: 100-continue` client is not invited to send it).
    pub body_limit: usize,
    /// Longest path and query, in bytes (default [`DEFAULT_MAX_URI_BYTES`]); longer answers
    /// 414.
    pub max_uri_bytes: usize,
    /// Largest total of header names and values, in bytes (default
    /// [`DEFAULT_MAX_HEADER_BYTES`]); more answers 431.
    pub max_header_bytes: usize,
    /// Most query parameters (default [`DEFAULT_MAX_QUERY_PARAMS`]); more answers 400.
    pub max_query_params: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            body_limit: DEFAULT_BODY_LIMIT,
            max_uri_bytes: DEFAULT_MAX_URI_BYTES,
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
            max_query_params: DEFAULT_MAX_QUERY_PARAMS,
        }
    }
}

impl ServerConfig {
    /// The first limit `parts` exceeds, as the error to answer. Each check is linear in the
    /// size of what it measures, which the transport already bounds.
    fn refuse(&self, parts: &axum::http::request::Parts) -> Option<ApiError> {
        let uri = parts.uri.path_and_query().map_or(0, |pq| pq.as_str().len());
        if uri > self.max_uri_bytes {
            let message = format!("the path and query are {uri} bytes long; the limit is {}", self.max_uri_bytes);
            return Some(ApiError::new(StatusCode::URI_TOO_LONG, message));
        }
        let headers: usize = parts.headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
        if headers > self.max_header_bytes {
            let message = format!("the headers are {headers} bytes long; the limit is {}", self.max_header_bytes);
            return Some(ApiError::new(StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, message));
        }
        let query = parts.uri.query().unwrap_or_default();
        let params = if query.is_empty() { 0 } else { query.split('&').count() };
        if params > self.max_query_params {
            let message = format!("the query has {params} parameters; the limit is {}", self.max_query_params);
            return Some(ApiError::bad_request(message));
        }
        let declared = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if declared.is_some_and(|length| length > self.body_limit as u64) {
            return Some(too_large(self.body_limit));
        }
        None
    }
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"))
}

async fn authenticate<S: Authenticator>(service: &S, headers: &HeaderMap) -> Result<S::Principal, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(ApiError::unauthorized("missing `Authorization: Bearer <token>` header"));
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, token)| scheme.eq_ignore_ascii_case("bearer") && is_token(token))
        .map(|(_, token)| token);
    match token {
        Some(token) => service.authenticate(token).await,
        None => Err(ApiError::unauthorized("the `Authorization` header must be `Bearer <token>`")),
    }
}

/// RFC 6750 `b64token`: visible characters, no spaces.
fn is_token(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b))
}

fn is_json(headers: &HeaderMap) -> bool {
    headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).and_then(|v| v.split(';').next()).is_some_and(
        |mime| {
            let mime = mime.trim().to_ascii_lowercase();
            mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
        },
    )
}

/// Polls a future, turning a panic into `Err(())`.
struct CatchUnwind<F>(F);

impl<F: Future + Unpin> Future for CatchUnwind<AssertUnwindSafe<F>> {
    type Output = Result<F::Output, ()>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        let inner = &mut (self.0).0;
        match std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(&mut *inner).poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Err(_) => Poll::Ready(Err(())),
        }
    }
}

/// A request's parameters and body, read by generated code into the operation's typed
/// request. Every problem is collected; [`Input::finish`] answers them all at once.
pub struct Input {
    path: Vec<(String, String)>,
    query: Vec<(String, String, bool)>,
    body: Bytes,
    has_body: bool,
    violations: Vec<Violation>,
    syntax: Option<String>,
}

impl Input {
    fn new(path: Vec<(String, String)>, query: &str, body: Bytes, has_body: bool) -> Self {
        let query =
            form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned(), false)).collect();
        Input { path, query, body, has_body, violations: Vec::new(), syntax: None }
    }

    /// An input built by hand, for tests of generated parsing.
    pub fn for_test(path: &[(&str, &str)], query: &str, body: &str, has_body: bool) -> Self {
        let path = path.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        Input::new(path, query, Bytes::copy_from_slice(body.as_bytes()), has_body)
    }

    fn fail(&mut self, path: String, message: impl Into<String>) {
        self.violations.push(Violation::new(path, message));
    }

    /// A path parameter (always present: the route matched it).
    pub fn path(&mut self, name: &str) -> String {
        self.path.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()).unwrap_or_default()
    }

    /// A path parameter of another type than text (integer, number, boolean, date-time); a
    /// value that does not parse is a violation at `path.<name>`.
    pub fn path_as<T: FromParam>(&mut self, name: &str) -> Option<T> {
        let text = self.path(name);
        match T::from_param(&text) {
            Ok(parsed) => Some(parsed),
            Err(message) => {
                self.fail(format!("path.{name}"), message);
                None
            }
        }
    }

    fn take_query(&mut self, name: &str) -> Vec<String> {
        let mut values = Vec::new();
        for (key, value, used) in &mut self.query {
            if key == name {
                *used = true;
                values.push(value.clone());
            }
        }
        values
    }

    /// An optional query parameter; given twice is a violation.
    pub fn query<T: FromParam>(&mut self, name: &str) -> Option<T> {
        let values = self.take_query(name);
        match values.as_slice() {
            [] => None,
            [value] => self.parse(name, value),
            _ => {
                self.fail(format!("query.{name}"), "is given more than once");
                None
            }
        }
    }

    /// A required query parameter.
    pub fn query_required<T: FromParam>(&mut self, name: &str) -> Option<T> {
        if !self.query.iter().any(|(k, _, _)| k == name) {
            self.fail(format!("query.{name}"), "is required");
            return None;
        }
        self.query(name)
    }

    /// A list-valued query parameter, sent as repeated keys.
    pub fn query_list<T: FromParam>(&mut self, name: &str) -> Vec<T> {
        let values = self.take_query(name);
        values.iter().filter_map(|value| self.parse(name, value)).collect()
    }

    fn parse<T: FromParam>(&mut self, name: &str, value: &str) -> Option<T> {
        match T::from_param(value) {
            Ok(parsed) => Some(parsed),
            Err(message) => {
                self.fail(format!("query.{name}"), message);
                None
            }
        }
    }

    /// Checks a parameter's value; `location` is `query.<name>` or `path.<name>`.
    pub fn check(&mut self, location: &str, check: impl FnOnce(&mut Validator)) {
        let mut validator = Validator::rooted(location);
        check(&mut validator);
        if let Err(found) = validator.finish() {
            self.violations.extend(found.0);
        }
    }

    /// The JSON body, decoded strictly and validated. `None` when absent (allowed only when
    /// `required` is false) or invalid (the problems are recorded).
    pub fn body<T: FromJson + Validate>(&mut self, required: bool) -> Option<T> {
        if self.body.iter().all(u8::is_ascii_whitespace) {
            if required {
                self.fail(String::new(), "a JSON body is required");
            }
            return None;
        }
        let value = match crate::json::parse_strict(&self.body) {
            Ok(value) => value,
            Err(crate::json::StrictParseError::Syntax(error)) => {
                self.syntax = Some(format!("the body is not valid JSON: {error}"));
                return None;
            }
            Err(crate::json::StrictParseError::DuplicateKeys(paths)) => {
                for path in paths {
                    self.fail(path, "is given more than once in the object");
                }
                return None;
            }
        };
        match crate::json::decode::<T>(value, Mode::Strict) {
            Ok(decoded) => {
                if let Err(found) = decoded.validate() {
                    self.violations.extend(found.0);
                    return None;
                }
                Some(decoded)
            }
            Err(found) => {
                self.violations.extend(found.0);
                None
            }
        }
    }

    /// Ends parsing: unknown query parameters and an unexpected body are violations; any
    /// problem answers 400.
    pub fn finish(mut self) -> Result<(), ApiError> {
        // One violation per unknown name, however often it is repeated; a set keeps this
        // linear in the number of parameters.
        let mut reported: std::collections::BTreeSet<String> = self.violations.iter().map(|v| v.path.clone()).collect();
        let unknown: Vec<String> = self.query.iter().filter(|(_, _, used)| !used).map(|(k, _, _)| k.clone()).collect();
        for name in unknown {
            let path = format!("query.{name}");
            if reported.insert(path.clone()) {
                self.fail(path, "is not a parameter of this operation");
            }
        }
        if !self.has_body && !self.body.iter().all(u8::is_ascii_whitespace) {
            self.fail(String::new(), "this operation takes no body");
        }
        match self.syntax {
            Some(message) if self.violations.is_empty() => Err(ApiError::bad_request(message)),
            Some(message) => {
                self.violations.push(Violation::new("", message));
                Err(ApiError::invalid(self.violations))
            }
            None if self.violations.is_empty() => Ok(()),
            None => Err(ApiError::invalid(self.violations)),
        }
    }
}

/// A query parameter value's type.
pub trait FromParam: Sized {
    /// Parses the text of a query parameter.
    fn from_param(text: &str) -> Result<Self, String>;
}

impl FromParam for String {
    fn from_param(text: &str) -> Result<Self, String> {
        Ok(text.to_owned())
    }
}

impl FromParam for i64 {
    fn from_param(text: &str) -> Result<Self, String> {
        text.parse().map_err(|_| format!("expected an integer, found {text:?}"))
    }
}

impl FromParam for f64 {
    fn from_param(text: &str) -> Result<Self, String> {
        text.parse().map_err(|_| format!("expected a number, found {text:?}"))
    }
}

impl FromParam for bool {
    fn from_param(text: &str) -> Result<Self, String> {
        match text {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("expected `true` or `false`, found {text:?}")),
        }
    }
}

impl FromParam for chrono::DateTime<chrono::Utc> {
    fn from_param(text: &str) -> Result<Self, String> {
        chrono::DateTime::parse_from_rfc3339(text)
            .map(|at| at.with_timezone(&chrono::Utc))
            .map_err(|_| format!("expected an RFC 3339 date-time, found {text:?}"))
    }
}

fn json_response<T: Serialize + ?Sized>(status: u16, value: &T) -> Response {
    match serde_json::to_vec(value) {
        Ok(bytes) => (
            StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
            [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            bytes,
        )
            .into_response(),
        Err(error) => ApiError::internal(format!("the response could not be written: {error}")).into_response(),
    }
}

/// A service answering every operation through one function: for mock servers and tests.
///
/// Generated servers implement every group of operations for it (feature `mock`). Each call
/// hands the function the operation's name, the caller's token and the parsed request as JSON
/// (parameters and `body` by their wire names); the JSON it returns is decoded into the
/// operation's response type.
#[derive(Clone)]
pub struct MockService {
    handler: Arc<MockHandler>,
    auth: Arc<MockAuth>,
}

type MockHandler = dyn Fn(MockCall) -> Result<serde_json::Value, ApiError> + Send + Sync;
type MockAuth = dyn Fn(&str) -> Result<String, ApiError> + Send + Sync;

/// One call received by a [`MockService`].
#[derive(Debug, Clone, PartialEq)]
pub struct MockCall {
    /// The operation's name in the spec.
    pub operation: &'static str,
    /// The principal the authenticator returned (the token, by default); `None` on public
    /// operations.
    pub principal: Option<String>,
    /// The parsed request: parameters and `body`, by wire name.
    pub request: serde_json::Value,
}

impl MockService {
    /// A service answering every call with `handler`, accepting every token.
    pub fn new(handler: impl Fn(MockCall) -> Result<serde_json::Value, ApiError> + Send + Sync + 'static) -> Self {
        MockService { handler: Arc::new(handler), auth: Arc::new(|token: &str| Ok(token.to_owned())) }
    }

    /// Checks tokens with `auth`, which returns the principal or refuses.
    pub fn with_auth(mut self, auth: impl Fn(&str) -> Result<String, ApiError> + Send + Sync + 'static) -> Self {
        self.auth = Arc::new(auth);
        self
    }

    /// Calls the handler and decodes its answer as `T` (generated code).
    pub fn call<T: FromJson>(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> std::future::Ready<Result<T, ApiError>> {
        std::future::ready(self.invoke(operation, context, request).and_then(|value| {
            crate::json::decode(value, Mode::Lenient).map_err(|violations| {
                ApiError::internal(format!("the mock's answer to `{operation}` does not decode: {violations}"))
            })
        }))
    }

    /// Calls the handler for an operation without response body (generated code).
    pub fn call_empty(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> std::future::Ready<Result<(), ApiError>> {
        std::future::ready(self.invoke(operation, context, request).map(|_| ()))
    }

    fn invoke(
        &self,
        operation: &'static str,
        context: &Context<impl MockPrincipal, impl Sized>,
        request: &impl Serialize,
    ) -> Result<serde_json::Value, ApiError> {
        let request = serde_json::to_value(request).map_err(|e| ApiError::internal(e.to_string()))?;
        (self.handler)(MockCall { operation, principal: context.principal.mock_principal(), request })
    }
}

/// The principals a [`MockService`] sees: its own (`String`) and [`Anonymous`].
pub trait MockPrincipal {
    /// The principal as a [`MockCall`] reports it.
    fn mock_principal(&self) -> Option<String>;
}

impl MockPrincipal for String {
    fn mock_principal(&self) -> Option<String> {
        Some(self.clone())
    }
}

impl MockPrincipal for Anonymous {
    fn mock_principal(&self) -> Option<String> {
        None
    }
}

impl Authenticator for MockService {
    type Principal = String;

    fn authenticate(&self, token: &str) -> impl Future<Output = Result<String, ApiError>> + Send {
        std::future::ready((self.auth)(token))
    }
}

/// What a generated server says about each operation: for docs, metrics and tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OperationInfo {
    /// Name in the spec.
    pub name: &'static str,
    /// Tag (group).
    pub tag: &'static str,
    /// HTTP method.
    pub method: &'static str,
    /// Path template, `{param}` placeholders included.
    pub path: &'static str,
    /// Success status answered unless the handler chooses another.
    pub status: u16,
    /// The other success statuses the handler may choose.
    pub also: &'static [u16],
    /// Public: answered without authentication.
    pub public: bool,
    /// Takes a JSON body.
    pub has_body: bool,
}

pub use axum;
