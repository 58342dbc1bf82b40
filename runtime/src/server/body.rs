//! Raw bodies both ways: [`BodyStream`], a `bytes` request body handed to the handler as it
//! arrives (the body limit enforced while it streams), and [`Download`], a `bytes` response a
//! handler answers from memory or from a stream; and what a body that fails to arrive is
//! answered ([`BodyTooSlow`]: 408, over the limit: 413, a broken transfer: 400).

use super::{ApiError, too_large};
use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use futures_util::{Stream, StreamExt};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

/// A request body that did not keep the pace [`crate::listener::serve`] demands: answered 408
/// and the connection closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyTooSlow {
    /// Bytes received when the deadline passed.
    pub received: u64,
    /// Time the body had by then.
    pub allowed: Duration,
}

impl std::fmt::Display for BodyTooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the body is too slow: {} bytes arrived in {:.1} s", self.received, self.allowed.as_secs_f64())
    }
}

impl std::error::Error for BodyTooSlow {}

/// The answer to a body that could not be read whole: 408 when it came too slowly, 413 past
/// `limit`, 400 when the transfer itself broke (a malformed chunk, a closed connection).
pub(crate) fn body_failure(error: &(dyn std::error::Error + 'static), limit: usize) -> ApiError {
    let mut cause = Some(error);
    while let Some(error) = cause {
        if let Some(slow) = error.downcast_ref::<BodyTooSlow>() {
            return ApiError::new(StatusCode::REQUEST_TIMEOUT, slow.to_string());
        }
        if error.downcast_ref::<http_body_util::LengthLimitError>().is_some() {
            return too_large(limit);
        }
        cause = error.source();
    }
    ApiError::bad_request(format!("the body could not be read: {error}"))
}

/// A request body streamed to the handler, chunk by chunk, never held whole: more than the
/// router's body limit ends it with a 413 error (return it with `?`).
pub struct BodyStream {
    inner: Option<axum::body::BodyDataStream>,
    read: usize,
    limit: usize,
}

impl BodyStream {
    pub(crate) fn new(body: Body, limit: usize) -> Self {
        BodyStream { inner: Some(body.into_data_stream()), read: 0, limit }
    }

    /// A stream of no bytes (the body of a request that sent none).
    pub fn empty() -> Self {
        BodyStream { inner: None, read: 0, limit: 0 }
    }

    /// The whole body in memory (for small bodies; the limit still applies).
    pub async fn collect(mut self) -> Result<Bytes, ApiError> {
        let mut all = Vec::new();
        while let Some(chunk) = self.next().await {
            all.extend_from_slice(&chunk?);
        }
        Ok(Bytes::from(all))
    }
}

impl Stream for BodyStream {
    type Item = Result<Bytes, ApiError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let Some(inner) = self.inner.as_mut() else { return Poll::Ready(None) };
        match inner.poll_next_unpin(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                self.read += chunk.len();
                if self.read > self.limit {
                    self.inner = None;
                    return Poll::Ready(Some(Err(too_large(self.limit))));
                }
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(Some(Err(error))) => {
                self.inner = None;
                Poll::Ready(Some(Err(body_failure(&error, self.limit))))
            }
            Poll::Ready(None) => {
                self.inner = None;
                Poll::Ready(None)
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

impl std::fmt::Debug for BodyStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BodyStream").field("read", &self.read).field("limit", &self.limit).finish()
    }
}

/// A `bytes` response: bytes in memory, or a stream sent as it is produced (a large file is
/// never held whole). The router sets its `Content-Type` to the media type negotiated with
/// the request's `Accept` (`context.media_type()`), or to the one the handler names with
/// [`Download::content_type`]: an answer the spec declares only as a range (`image/*`,
/// `*/*`) is sent in the concrete type the handler chooses within it (`image/webp`), or
/// without one in a common member of the range ([`crate::media::range_default`]:
/// `image/png`, `application/octet-stream`).
pub struct Download {
    pub(crate) body: Body,
    pub(crate) content_type: Option<String>,
}

impl Download {
    /// These bytes.
    pub fn bytes(bytes: impl Into<Bytes>) -> Self {
        Download { body: Body::from(bytes.into()), content_type: None }
    }

    /// Sent with this `Content-Type` (parameters allowed: `text/plain; charset=latin1`),
    /// which must lie within the negotiated media type (`image/png` within `image/*`; a
    /// concrete one, itself): a type outside it is the handler's bug, answered 500 in the
    /// API's error body rather than sent as something the spec does not declare.
    #[must_use]
    pub fn content_type(mut self, media_type: impl Into<String>) -> Self {
        self.content_type = Some(media_type.into());
        self
    }

    /// The chunks of `stream`, sent as they come; an error ends the response early (the
    /// client sees a truncated body).
    pub fn stream<S, E>(stream: S) -> Self
    where
        S: Stream<Item = Result<Bytes, E>> + Send + 'static,
        E: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        Download { body: Body::from_stream(stream), content_type: None }
    }
}

impl std::fmt::Debug for Download {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Download").field("content_type", &self.content_type).finish_non_exhaustive()
    }
}
