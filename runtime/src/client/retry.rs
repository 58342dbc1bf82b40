//! When and how a call is tried again: the [`RetryPolicy`] (backoff with jitter), `Retry-After`,
//! the call's deadline, and the loop of attempts, each of which sends the request once and
//! sorts its answer (a success read or open, a failure status, a failed request).

use super::call::{Call, CallBody};
use super::core::Core;
use super::error::{Error, ErrorTypes, api_error};
use super::transfer::{Answer, BodyError, Download, DownloadBody, Received, read_body};
use crate::defaults::RETRIED_STATUSES;
use crate::error::ErrorShape;
use reqwest::header::{HeaderValue, RETRY_AFTER};
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

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

/// `Retry-After` as delta-seconds or an HTTP date.
fn parse_retry_after(value: &HeaderValue) -> Option<Duration> {
    let text = value.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(std::time::SystemTime::now()).unwrap_or_default())
}

impl Core {
    /// Sends a call, retrying as the policy allows: a 2xx answer read whole, or (with `open`)
    /// before its body.
    pub(super) async fn run(&self, call: &Call, open: bool) -> Result<Outcome, Error> {
        #[cfg(feature = "tracing")]
        {
            use tracing::Instrument;
            let span = crate::trace::call(call.operation, &call.method);
            let started = std::time::Instant::now();
            let result = self.run_attempts(call, open).instrument(span.clone()).await;
            let status = match &result {
                Ok(Outcome::Read(answer)) => Some(answer.status),
                Ok(Outcome::Open(download)) => Some(download.status),
                Err(error) => error.status(),
            };
            crate::trace::ended(&span, status, result.as_ref().err().map(error_kind), started.elapsed());
            result
        }
        #[cfg(not(feature = "tracing"))]
        self.run_attempts(call, open).await
    }

    /// [`Core::run`]'s loop of attempts.
    async fn run_attempts(&self, call: &Call, open: bool) -> Result<Outcome, Error> {
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
            #[cfg(feature = "tracing")]
            let (span, attempt_started) = (crate::trace::attempt(retry + 1), std::time::Instant::now());
            #[cfg(feature = "tracing")]
            let outcome = tracing::Instrument::instrument(self.attempt(call, left, open), span.clone()).await;
            #[cfg(not(feature = "tracing"))]
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
            let retried = wait.filter(|wait| retryable && retry < policy.max_retries && within_deadline(wait));
            #[cfg(feature = "tracing")]
            {
                let (status, error) = match &outcome {
                    Attempt::Done(answer) => (Some(answer.status), None),
                    Attempt::Open(download) => (Some(download.status), None),
                    Attempt::Status { status, .. } => (Some(*status), None),
                    Attempt::Failed(failure) => (failure.status(), Some(error_kind(failure))),
                };
                crate::trace::ended(&span, status, error, attempt_started.elapsed());
                if let Some(wait) = retried {
                    span.record("retry_in_ms", wait.as_millis() as u64);
                }
                tracing::Span::current().record("attempts", retry + 1);
            }
            match retried {
                Some(wait) => {
                    retry += 1;
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    return outcome.into_result(self.settings.errors, call.errors).map_err(|e| self.redactor.error(e));
                }
            }
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
        let ends = tokio::time::Instant::now() + timeout;
        let mut hop = match self.first_hop(call) {
            Ok(hop) => hop,
            Err(error) => return Attempt::Failed(error),
        };
        // Redirects are followed here, not by reqwest: credentials go to the API's origin
        // only, and no `Referer` is sent.
        let mut redirects = 0;
        let response = loop {
            let remaining = ends.saturating_duration_since(tokio::time::Instant::now());
            if remaining.is_zero() {
                return Attempt::Failed(Error::Timeout(timeout));
            }
            let request = match self.request(call, &hop, remaining) {
                Ok(request) => request,
                Err(error) => return Attempt::Failed(error),
            };
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) if error.is_timeout() => return Attempt::Failed(Error::Timeout(timeout)),
                Err(error) => return Attempt::Failed(Error::Transport(error)),
            };
            let status = response.status().as_u16();
            match self.redirect(call, &hop, status, response.headers()).filter(|_| redirects < MAX_REDIRECTS) {
                Some(next) => {
                    redirects += 1;
                    hop = next;
                }
                None => break response,
            }
        };
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        if open && (200..300).contains(&status) {
            let redactor = self.redactor.clone();
            return Attempt::Open(Download { status, headers, body: DownloadBody::Live(response), redactor });
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
            Attempt::Done(Answer { status, headers, body: Received::new(body, &self.redactor) })
        } else {
            Attempt::Status { status, retry_after, headers, body }
        }
    }
}

/// The kind of a failure, as a span records it (never its text: a transport error's names the
/// URL, which may carry a key in its query).
#[cfg(feature = "tracing")]
fn error_kind(error: &Error) -> &'static str {
    match error {
        Error::Api { .. } => "status",
        Error::Transport(_) => "transport",
        Error::Timeout(_) => "timeout",
        Error::TooLarge { .. } => "too_large",
        Error::Decode { .. } => "decode",
        Error::Invalid(_) => "invalid",
        Error::Pagination(_) => "pagination",
        Error::Config(_) => "config",
    }
}

/// Most redirects one attempt follows (as reqwest's default policy): the answer past them is
/// the attempt's answer (an [`Error::Api`] of its 3xx status).
const MAX_REDIRECTS: usize = 10;

/// A success, read or open.
pub(super) enum Outcome {
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
}
