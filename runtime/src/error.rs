//! The error body every failure answers (spec gap `error-body`):
//! `{"error": {"code": <http status>, "message": "<text>", "violations"?: [...]}}`.

use crate::validate::Violation;
use serde::{Deserialize, Serialize};

/// The JSON body of every failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// The HTTP status code.
    pub code: u16,
    /// A message for humans.
    pub message: String,
    /// For a request that failed validation: every violation, with its JSON pointer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

impl ErrorBody {
    /// An error body with no violations.
    pub fn new(code: u16, message: impl Into<String>) -> Self {
        ErrorBody { error: ErrorDetail { code, message: message.into(), violations: Vec::new() } }
    }

    /// A 400 listing every violation.
    pub fn invalid(message: impl Into<String>, violations: Vec<Violation>) -> Self {
        ErrorBody { error: ErrorDetail { code: 400, message: message.into(), violations } }
    }
}
