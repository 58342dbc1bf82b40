//! The router's limits, checked before anything else of a request is read.

use super::{ApiError, too_large};
use axum::http::{StatusCode, header};

pub use crate::defaults::{
    DEFAULT_BODY_LIMIT, DEFAULT_MAX_FORM_FIELDS, DEFAULT_MAX_HEADER_BYTES, DEFAULT_MAX_QUERY_PARAMS,
    DEFAULT_MAX_URI_BYTES, DEFAULT_UPLOAD_LIMIT,
};

/// Router settings: the limits checked before anything else is read. Every one answers with
/// the error body; build with `ServerConfig { body_limit: .., ..Default::default() }`.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Largest request body read into memory (JSON, forms, multipart, text), in bytes
    /// (default [`DEFAULT_BODY_LIMIT`], 2 MiB); a larger one answers 413, before it is read
    /// when `Content-Length` declares it (so an `Expect: 100-continue` client is not invited
    /// to send it).
    pub body_limit: usize,
    /// Largest streamed request body (an operation taking `bytes`), in bytes (default
    /// [`DEFAULT_UPLOAD_LIMIT`], 1 GiB): checked against `Content-Length` first, then while
    /// the handler reads the stream (which then yields a 413 error).
    pub upload_limit: usize,
    /// Longest path and query, in bytes (default [`DEFAULT_MAX_URI_BYTES`]); longer answers
    /// 414.
    pub max_uri_bytes: usize,
    /// Largest total of header names and values, in bytes (default
    /// [`DEFAULT_MAX_HEADER_BYTES`]); more answers 431.
    pub max_header_bytes: usize,
    /// Most query parameters (default [`DEFAULT_MAX_QUERY_PARAMS`]); more answers 400.
    pub max_query_params: usize,
    /// Most fields of a form body, urlencoded pairs or multipart parts (default
    /// [`DEFAULT_MAX_FORM_FIELDS`], 1000); more answers 400 (`the form has N fields; the
    /// limit is 1000`) before any field is decoded. A form is held as the body plus 8 bytes a
    /// field (at most 4 times its size), and decoded field by field as the operation reads
    /// them; this limit also bounds what repeated or unknown fields cost (a list value each,
    /// a violation each).
    pub max_form_fields: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            body_limit: DEFAULT_BODY_LIMIT,
            upload_limit: DEFAULT_UPLOAD_LIMIT,
            max_uri_bytes: DEFAULT_MAX_URI_BYTES,
            max_header_bytes: DEFAULT_MAX_HEADER_BYTES,
            max_query_params: DEFAULT_MAX_QUERY_PARAMS,
            max_form_fields: DEFAULT_MAX_FORM_FIELDS,
        }
    }
}

impl ServerConfig {
    /// The body limit of an operation: [`upload_limit`](Self::upload_limit) when its body
    /// streams, else [`body_limit`](Self::body_limit).
    pub(crate) fn limit(&self, streams: bool) -> usize {
        if streams { self.upload_limit } else { self.body_limit }
    }

    /// A 414 for a path and query longer than [`max_uri_bytes`](Self::max_uri_bytes): checked
    /// before any route is chosen too, so no matching ever reads a longer path.
    pub(crate) fn refuse_uri(&self, uri: &axum::http::Uri) -> Option<ApiError> {
        let length = uri.path_and_query().map_or(0, |pq| pq.as_str().len());
        (length > self.max_uri_bytes).then(|| {
            let message = format!("the path and query are {length} bytes long; the limit is {}", self.max_uri_bytes);
            ApiError::new(StatusCode::URI_TOO_LONG, message)
        })
    }

    /// The first limit `parts` exceeds, as the error to answer, for an operation whose body
    /// streams or not. Each check is linear in the size of what it measures, which the
    /// transport already bounds.
    pub(crate) fn refuse(&self, parts: &axum::http::request::Parts, streams: bool) -> Option<ApiError> {
        if let Some(refusal) = self.refuse_uri(&parts.uri) {
            return Some(refusal);
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
        let limit = self.limit(streams);
        if declared.is_some_and(|length| length > limit as u64) {
            return Some(too_large(limit));
        }
        None
    }
}
