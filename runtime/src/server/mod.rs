//! Server support (feature `server`): what every generated axum router shares.
//!
//! A request goes through the same steps, in order, before any handler runs:
//!
//! 1. **Authentication** (unless the operation is public): the request must carry the
//!    credential of one of the schemes the operation accepts (a bearer token, basic
//!    credentials, an API key in a header, the query or a cookie; 401 otherwise, naming what
//!    to send); the first one found goes to the service's [`Authenticator`], which may refuse
//!    with 401 or 403. An operation requiring scopes is refused with 403 and RFC 6750's
//!    `insufficient_scope` challenge unless [`Authenticator::grants`] grants each of them to
//!    the principal (any one alternative requirement suffices).
//! 2. **Body transport**: a body larger than the limit answers 413; one of a media type the
//!    operation does not take answers 415; under [`crate::listener::serve`], one arriving too
//!    slowly answers 408 ([`BodyTooSlow`]).
//! 3. **Extraction and validation**: path and query parameters are parsed and checked, the
//!    body is parsed as JSON (400 when it is not), decoded strictly and validated. Every
//!    problem found is reported in one 400 whose `violations` name each one: body fields by
//!    JSON pointer (`/title`), parameters by location and name (`query.limit`,
//!    `header.X-Trace`, `cookie.session`).
//!
//! Then the handler runs; its `Ok` value is answered with the operation's status, its `Err`
//! with the error body. A panic in a handler answers 500 and the server keeps serving.
//! Unknown routes answer 404 and known routes with another method 405, with the error body;
//! a route whose operations are selected by a header or query constant answers 400 naming the
//! selector when the request carries none of their values (its `dispatch` module matches what axum's
//! router cannot: parameters sharing a segment with text, and selectors).
//!
//! One handler type serves every route, so axum's generic machinery is compiled once per
//! service rather than once per operation.
//!
//! By concern: [`ApiError`] (`error`), the [`Authenticator`] (`auth`), the handler's
//! [`Context`] (`context`), the limits of [`ServerConfig`] (`config`), the request's
//! [`Input`] (`input`), the router's [`Routes`] (`routes`) and the [`MockService`] (`mock`).

mod auth;
mod body;
mod config;
mod context;
mod dispatch;
#[cfg(feature = "docs")]
mod docs;
mod error;
mod input;
mod mock;
mod routes;

pub use crate::auth::{Credential, KeyIn, Scheme, SchemeKind, Secret};
pub use crate::params::FromParam;
pub use auth::{Authenticator, GroupLeftOut};
pub(crate) use auth::{Refusal, authenticate, challenge, insufficient_scope};
pub use body::{BodyStream, BodyTooSlow, Download};
pub use config::{
    DEFAULT_BODY_LIMIT, DEFAULT_MAX_FORM_FIELDS, DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_QUERY_PARAMS,
    DEFAULT_MAX_URI_BYTES, DEFAULT_UPLOAD_LIMIT, ServerConfig,
};
pub use context::{Anonymous, Context, OnlyStatus, Status};
pub use dispatch::{Piece, Selector};
#[cfg(feature = "docs")]
pub use docs::{REDOC_JS, docs_router};
pub use error::ApiError;
pub(crate) use error::too_large;
#[cfg(feature = "tracing")]
pub(crate) use error::violations_refused;
// Generated servers' reading of an enumeration parameter (through `codegen::server`).
#[doc(hidden)]
pub use input::from_text;
pub use input::{Input, NoParams};
pub use mock::{MockAnswer, MockCall, MockPaging, MockPrincipal, MockService};
pub use routes::{
    Access, Answer, Authenticated, Handled, Handler, MissingOperations, Public, Refused, Reply, Routes, bodiless,
    download, empty, json, reject, text,
};

use crate::error::ErrorShape;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

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

fn json_response<T: Serialize + ?Sized>(status: u16, value: &T) -> Result<Response, ApiError> {
    // A response never carries write-only fields.
    match crate::json::writing(crate::json::Direction::Response, || serde_json::to_vec(value)) {
        Ok(bytes) => Ok((
            StatusCode::from_u16(status).unwrap_or(StatusCode::OK),
            [(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))],
            bytes,
        )
            .into_response()),
        Err(error) => Err(ApiError::internal(format!("the response could not be written: {error}"))),
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
    /// Path template, `{param}` placeholders included, as the spec writes it (parameters may
    /// share a segment with text; a trailing slash is kept). The router matches on it.
    pub path: &'static str,
    /// The constants selecting this operation among those sharing its method and path: the
    /// router answers it only to a request carrying each of them.
    pub select: &'static [Selector],
    /// Success status answered unless the handler chooses another.
    pub status: u16,
    /// The other success statuses the handler may choose.
    pub also: &'static [u16],
    /// Public: answered without authentication (`auth` is empty).
    pub public: bool,
    /// The schemes the operation accepts, in the spec's order: alternatives, each the schemes
    /// a request carries together (one, usually; two keys an API asks for at once). The first
    /// alternative a request carries whole is authenticated, each of its credentials.
    pub auth: &'static [&'static [Scheme]],
    /// The scopes each scheme of each alternative requires, `scopes[i][j]` for `auth[i][j]`
    /// (OAuth 2.0 scopes, or roles): the router asks [`Authenticator::grants`] for each and
    /// refuses a principal lacking one with 403. Empty when the operation requires none.
    pub scopes: &'static [&'static [&'static [&'static str]]],
    /// Takes a body.
    pub has_body: bool,
    /// The media types of the request body it takes, in the spec's order (empty without a
    /// body); another `Content-Type` answers 415.
    pub consumes: &'static [&'static str],
    /// The media types of its success responses, in the spec's order of preference; an
    /// `Accept` that allows none of them answers 406.
    pub produces: &'static [&'static str],
    /// Its body is raw bytes streamed to the handler ([`BodyStream`]) instead of read first.
    pub streams: bool,
    /// The response headers the spec says a success always carries: a handler's success
    /// without one of them answers 500.
    pub headers: &'static [&'static str],
    /// For an operation paged by the `Link` header, the query parameter taking the cursor:
    /// the router writes the next page's link from `Context::set_next_page`.
    pub link_cursor: Option<&'static str>,
    /// The error bodies of the statuses it answers in another body than the API's
    /// (`api.errors.bodies`): status and the body's shape, `0` standing for `default`, the
    /// status any other failure is answered in. Empty for most operations.
    pub errors: &'static [(u16, &'static ErrorShape)],
}

impl OperationInfo {
    /// The error body it answers a failure of `status` in: its own for that status, else its
    /// `default` one, else the API's (`api`).
    pub fn error_shape(&self, status: u16, api: &'static ErrorShape) -> &'static ErrorShape {
        ErrorShape::of_status(self.errors, status, api)
    }

    /// What an operation has unless its entry says otherwise: `GET /`, answering 200 in
    /// JSON (`application/json`, the most common answer), no selectors, no other status,
    /// authenticated by no scheme, no body, no required header, no `Link` paging. Generated entries give their own values and take
    /// the rest from it.
    pub const BASE: OperationInfo = OperationInfo {
        name: "",
        tag: "",
        method: "GET",
        path: "/",
        select: &[],
        status: 200,
        also: &[],
        public: false,
        auth: &[],
        scopes: &[],
        has_body: false,
        consumes: &[],
        produces: &["application/json"],
        streams: false,
        headers: &[],
        link_cursor: None,
        errors: &[],
    };
}

pub use axum;
