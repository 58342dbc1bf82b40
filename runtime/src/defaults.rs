//! The runtime's defaults in one place: the server's limits, the client's timeout, response cap,
//! page guard and retried statuses.
//!
//! This file has no dependencies on purpose: apigen compiles it into itself too, so the
//! documentation it generates for a crate states exactly the values this runtime applies.

/// The default limit on request bodies: 2 MiB (spec gap `max-body-size`).
pub const DEFAULT_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// The default limit on a streamed request body (an operation taking `bytes`): 1 GiB. It is
/// read chunk by chunk as the handler consumes it, so the limit bounds what a caller may send,
/// not what the server holds.
pub const DEFAULT_UPLOAD_LIMIT: usize = 1024 * 1024 * 1024;

/// The default limit on a request's path and query: 8 KiB (longer answers 414).
pub const DEFAULT_MAX_URI_BYTES: usize = 8 * 1024;

/// The default limit on a request's headers, names and values together: 64 KiB (more
/// answers 431).
pub const DEFAULT_MAX_HEADER_BYTES: usize = 64 * 1024;

/// The default limit on the number of query parameters: 1000 (more answers 400), as forms'
/// [`DEFAULT_MAX_FORM_FIELDS`]. Django (`DATA_UPLOAD_MAX_NUMBER_FIELDS`, which counts the query
/// too), PHP (`max_input_vars`) and Tomcat (`maxParameterCount`) stop at 1000 as well; 256
/// refused requests documents allow (AWS's `DELETE /tags/{arn}?tagKeys=...` takes 500 keys).
pub const DEFAULT_MAX_QUERY_PARAMS: usize = 1000;

/// The default limit on the number of fields of a form body (urlencoded pairs or multipart
/// parts): 1000 (more answers 400 before any field is decoded). Django and PHP stop at 1000
/// too.
pub const DEFAULT_MAX_FORM_FIELDS: usize = 1000;

/// The most violations an error body lists: 100. A request with more (a body of 100,000
/// unknown fields) is answered with the first 100 and a message counting them all, so an
/// error body is never much larger than this bound whatever the request.
pub const MAX_LISTED_VIOLATIONS: usize = 100;

/// The default timeout of one client attempt, in seconds: 30.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 30;

/// The default limit on a response body the client reads: 8 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 8 * 1024 * 1024;

/// The default guard on the pages a client stream reads: 1000.
pub const DEFAULT_MAX_PAGES: usize = 1000;

/// The statuses the client retries (with idempotent methods, or every method when the
/// policy says so): too many requests, and the gateway's three ways of saying "try again".
pub const RETRIED_STATUSES: [u16; 4] = [429, 502, 503, 504];
