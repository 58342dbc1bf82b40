//! What a handler knows about its request beyond parameters and body, and how it shapes its
//! response: principal, headers, extensions, response headers and status.

use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};
use std::fmt;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex};

/// What a handler knows about the request beyond its parameters and body, and how it shapes
/// its response beyond the body.
///
/// `P` is the principal: what the [`Authenticator`](super::Authenticator) returned, or [`Anonymous`] for a public
/// operation. `S` is the operation's status type: an enumeration of the success statuses the
/// spec declares when it declares more than one (so [`Context::set_status`] cannot choose
/// another), [`OnlyStatus`] otherwise.
pub struct Context<P, S = OnlyStatus> {
    /// Who made the request, as the [`Authenticator`](super::Authenticator) said ([`Anonymous`] on public operations).
    pub principal: P,
    /// The request headers.
    pub headers: HeaderMap,
    /// The operation's name in the spec.
    pub operation: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The route that matched, as the spec writes it (`/v1/spaces/{spaceId}`).
    pub path: &'static str,
    /// The request's path and query, as received (percent-encoded).
    pub uri: axum::http::Uri,
    /// What middleware put in the request's extensions (a request id, a tracing span, a
    /// tenant, ...), read with `context.extensions.get::<T>()`.
    pub extensions: axum::http::Extensions,
    pub(crate) response: ResponseHandle,
    /// The media type of the success response, negotiated with the request's `Accept`.
    pub(crate) media: &'static str,
    pub(crate) status: PhantomData<fn() -> S>,
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
pub(crate) struct ResponseHandle(Arc<Mutex<ResponseParts>>);

#[derive(Default)]
struct ResponseParts {
    status: Option<u16>,
    headers: HeaderMap,
    next_page: Option<String>,
}

impl ResponseHandle {
    fn with<R>(&self, f: impl FnOnce(&mut ResponseParts) -> R) -> R {
        // A handler that panicked while holding the lock left nothing half-written that
        // matters: the parts are plain values.
        f(&mut self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    pub(crate) fn take(&self) -> (Option<u16>, HeaderMap, Option<String>) {
        self.with(|parts| (parts.status.take(), std::mem::take(&mut parts.headers), parts.next_page.take()))
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
            uri: axum::http::Uri::from_static("/"),
            extensions: axum::http::Extensions::new(),
            response: ResponseHandle::default(),
            media: "application/json",
            status: PhantomData,
        }
    }

    /// The caller's address, when the server records it ([`crate::listener::serve`] does; so
    /// does axum's `into_make_service_with_connect_info`).
    pub fn remote_addr(&self) -> Option<std::net::SocketAddr> {
        self.extensions.get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|info| info.0)
    }

    /// Sets a response header, replacing any value set before (`ETag`, `Location`, a
    /// rate-limit header). Headers are sent with errors too, so a 429 can say when to retry.
    pub fn insert_response_header(&self, name: HeaderName, value: HeaderValue) {
        self.response.with(|parts| parts.headers.insert(name, value));
    }

    /// Sets the operation's typed response headers (the generated `<Operation>Headers`): each
    /// field set becomes a header, replacing any value set before. A value a header cannot
    /// hold (a line break) fails with 500.
    pub fn set_headers<H: crate::params::HeaderSet>(&self, headers: &H) -> Result<(), super::ApiError> {
        for (name, value) in headers.to_pairs() {
            let header = HeaderName::from_bytes(name.as_bytes());
            let text = HeaderValue::from_str(&value);
            let (Ok(header), Ok(text)) = (header, text) else {
                return Err(super::ApiError::internal(format!("the response header `{name}` cannot hold {value:?}")));
            };
            self.insert_response_header(header, text);
        }
        Ok(())
    }

    /// The media type the success response is answered in: of those the operation declares,
    /// the one the request's `Accept` prefers (the first declared without `Accept`). A handler
    /// of an operation answering a document as PDF or Markdown writes the one asked for.
    pub fn media_type(&self) -> &'static str {
        self.media
    }

    /// The context answering in `media_type` (for unit tests of handlers).
    #[must_use]
    pub fn with_media_type(mut self, media_type: &'static str) -> Self {
        self.media = media_type;
        self
    }

    /// For an operation paged by the `Link` header: the cursor of the next page. The router
    /// answers `Link: <this path and query, with the cursor parameter set to it>; rel="next"`
    /// (none is sent without a next page). Other operations ignore it.
    pub fn set_next_page(&self, cursor: impl Into<String>) {
        let cursor = cursor.into();
        self.response.with(|parts| parts.next_page = Some(cursor));
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
            uri: self.uri.clone(),
            extensions: self.extensions.clone(),
            response: self.response.clone(),
            media: self.media,
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
