//! The failure every handler and the router answer: a status and the API's error body; under
//! `tracing`, the mark a refusal leaves on its response for the span of its request.

use crate::defaults::MAX_LISTED_VIOLATIONS;
use crate::error::ErrorShape;
use crate::validate::Violation;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::fmt;

/// A failure, answered with the API's error body.
///
/// Handlers return it for the failure cases of the spec; the router builds it for every
/// rejection before a handler runs. Built from a message (`ApiError::not_found("..")`), it is
/// written in the API's error shape ([`ErrorShape`]: by default `{"error": {"code", "message",
/// "violations"?}}`); built with [`ApiError::with_body`], it answers that body as it is (one of
/// the error types the spec declares).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    status: StatusCode,
    payload: Payload,
}

#[derive(Debug, Clone, PartialEq)]
enum Payload {
    /// Written through the API's error shape.
    Message { message: String, violations: Vec<Violation> },
    /// Answered as it is.
    Body(serde_json::Value),
}

impl ApiError {
    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError { status, payload: Payload::Message { message: message.into(), violations: Vec::new() } }
    }

    /// An error answering `body` as it is: a value of an error type the spec declares for
    /// this status (`errors: [{ status: 404, type: NotFound }]`).
    pub fn with_body(status: StatusCode, body: &impl Serialize) -> Self {
        match serde_json::to_value(body) {
            Ok(value) => ApiError { status, payload: Payload::Body(value) },
            Err(error) => ApiError::internal(format!("the error body could not be written: {error}")),
        }
    }

    /// 400: the request is invalid or the state change is refused.
    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 400 listing every violation, or the first [`MAX_LISTED_VIOLATIONS`] (100) of more,
    /// with the message counting them all.
    pub fn invalid(violations: Vec<Violation>) -> Self {
        ApiError::invalid_counted(violations, 0)
    }

    /// 400 as [`ApiError::invalid`], for `violations` and `unlisted` more found but never
    /// built: the message counts them all.
    pub(crate) fn invalid_counted(mut violations: Vec<Violation>, unlisted: usize) -> Self {
        let all = violations.len() + unlisted;
        let message = if all > MAX_LISTED_VIOLATIONS {
            violations.truncate(MAX_LISTED_VIOLATIONS);
            format!("the request is invalid: {all} violations, the first {MAX_LISTED_VIOLATIONS} listed")
        } else {
            "the request is invalid".to_owned()
        };
        ApiError { status: StatusCode::BAD_REQUEST, payload: Payload::Message { message, violations } }
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

    /// The message it was built from; `None` for one built [`ApiError::with_body`].
    pub fn message(&self) -> Option<&str> {
        match &self.payload {
            Payload::Message { message, .. } => Some(message),
            Payload::Body(_) => None,
        }
    }

    /// The violations of a 400 built with [`ApiError::invalid`].
    pub fn violations(&self) -> &[Violation] {
        match &self.payload {
            Payload::Message { violations, .. } => violations,
            Payload::Body(_) => &[],
        }
    }

    /// The body answered, in the API's error `shape`.
    pub fn body(&self, shape: &ErrorShape) -> serde_json::Value {
        match &self.payload {
            Payload::Message { message, violations } => shape.render(self.status.as_u16(), message, violations),
            Payload::Body(body) => body.clone(),
        }
    }

    /// The response: the status and the body in the API's error `shape` (a 401 with the
    /// `Bearer` challenge, which the router replaces with its operation's schemes).
    pub fn into_response_with(self, shape: &ErrorShape) -> Response {
        let bytes = serde_json::to_vec(&self.body(shape)).unwrap_or_default();
        let media_type = HeaderValue::from_static(shape.media_type);
        let mut response = (self.status, [(header::CONTENT_TYPE, media_type)], bytes).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        #[cfg(feature = "tracing")]
        if !self.violations().is_empty() {
            response.extensions_mut().insert(Refused { violations: self.violations().len() });
        }
        response
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.payload {
            Payload::Message { message, .. } => write!(f, "{} {message}", self.status.as_u16()),
            Payload::Body(body) => write!(f, "{} {body}", self.status.as_u16()),
        }
    }
}

impl std::error::Error for ApiError {}

/// In the default error shape ([`ErrorShape::DEFAULT`]); the generated router writes errors
/// in the API's own shape.
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        self.into_response_with(&ErrorShape::DEFAULT)
    }
}

/// A refusal's violations, kept on the response for the `tracing` span of its request (the
/// body holds them for the caller); read with [`violations_refused`].
#[cfg(feature = "tracing")]
#[derive(Debug, Clone, Copy)]
struct Refused {
    /// How many the refusal lists.
    violations: usize,
}

/// How many violations the refusal `response` answers lists, for the span of its request;
/// `None` for any other response.
#[cfg(feature = "tracing")]
pub(crate) fn violations_refused(response: &Response) -> Option<usize> {
    response.extensions().get::<Refused>().map(|refused| refused.violations)
}

pub(crate) fn too_large(limit: usize) -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"))
}
