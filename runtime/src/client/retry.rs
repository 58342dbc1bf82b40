//! When a call is tried again: the [`RetryPolicy`] (backoff with jitter) and `Retry-After`.
//! The loop of attempts that follows them is the core's (`core`).

use crate::defaults::RETRIED_STATUSES;
use reqwest::header::HeaderValue;
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
    pub(super) fn backoff(&self, retry: u32) -> Duration {
        let exponential = self.initial_backoff.saturating_mul(2u32.saturating_pow(retry.saturating_sub(1)));
        let capped = exponential.min(self.max_backoff);
        let random = std::collections::hash_map::RandomState::new().build_hasher().finish();
        capped.mul_f64((random % 10_000) as f64 / 10_000.0)
    }

    /// The wait before retry number `retry` (1-based) after a failure `status` answered with
    /// `retry_after`: the `Retry-After` given, else the backoff; `None` when the status is not
    /// retried or the `Retry-After` is longer than the policy honours.
    pub(super) fn wait_after_status(&self, status: u16, retry_after: Option<Duration>, retry: u32) -> Option<Duration> {
        if !RETRIED_STATUSES.contains(&status) {
            return None;
        }
        match retry_after {
            Some(after) if after > self.max_retry_after => None,
            Some(after) => Some(after),
            None => Some(self.backoff(retry)),
        }
    }
}

/// `Retry-After` as delta-seconds or an HTTP date.
pub(super) fn parse_retry_after(value: &HeaderValue) -> Option<Duration> {
    let text = value.to_str().ok()?.trim();
    if let Ok(seconds) = text.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(text).ok()?;
    Some(at.duration_since(std::time::SystemTime::now()).unwrap_or_default())
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
