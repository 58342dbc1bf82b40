//! The failure every handler and the router answer: a status and the API's error body.

use crate::error::ErrorBody;
use crate::validate::Violation;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::fmt;

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

pub(crate) fn too_large(limit: usize) -> ApiError {
    ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is larger than {limit} bytes"))
}
