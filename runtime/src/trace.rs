//! `tracing` spans (feature `tracing`): one per request the generated server answers and one per
//! call the generated client makes, with one per attempt inside it.
//!
//! Server: a span `operation` per request, with the fields `operation` (its name in the spec),
//! `group` (its tag), `method` and `route` (the path template, never the request's path or
//! query), then `status`, `latency_ms` and `violations` (how many the 400 refusal listed, when
//! the request was refused as invalid) recorded when the answer is ready, and an event
//! `answered` inside it (`warn` for a 5xx, `info` otherwise). Under tower-http's `TraceLayer` it is a child of the layer's `request`
//! span, so a subscriber (`tracing-subscriber`'s `fmt`, or any) shows both.
//!
//! Client: a span `call` per operation called (`operation`, `method`, then `status`,
//! `attempts`, `latency_ms`, and `error`: the kind of failure, `timeout`, `transport`, ...),
//! and inside it a span `attempt` per attempt (`attempt`: 1, 2, ...; `status`, `latency_ms`,
//! `error`, and `retry_in_ms` when another attempt follows). No URL, query, header or body is
//! recorded, and no error's text (a transport error's text names the URL): nothing a secret
//! can travel in.

/// The field values not known when a span opens.
#[cfg(any(feature = "server", feature = "client"))]
use tracing::field::Empty;

/// The milliseconds of `elapsed`, to the microsecond.
#[cfg(any(feature = "server", feature = "client"))]
fn millis(elapsed: std::time::Duration) -> f64 {
    elapsed.as_micros() as f64 / 1000.0
}

/// `answer` (the steps and the handler of one request to `info`'s operation) inside its span.
#[cfg(feature = "server")]
pub(crate) async fn request(
    info: &'static crate::server::OperationInfo,
    answer: impl std::future::Future<Output = axum::response::Response>,
) -> axum::response::Response {
    use tracing::Instrument;
    let span = tracing::info_span!(
        "operation",
        operation = info.name,
        group = info.tag,
        method = info.method,
        route = info.path,
        status = Empty,
        latency_ms = Empty,
        violations = Empty,
    );
    let started = std::time::Instant::now();
    let response = answer.instrument(span.clone()).await;
    let status = response.status().as_u16();
    span.record("status", status);
    span.record("latency_ms", millis(started.elapsed()));
    if let Some(violations) = crate::server::violations_refused(&response) {
        span.record("violations", violations);
    }
    // The span holds the fields; the event makes one line of a `fmt` subscriber.
    if status >= 500 {
        tracing::warn!(parent: &span, "answered");
    } else {
        tracing::info!(parent: &span, "answered");
    }
    response
}

/// The span of one client call.
#[cfg(feature = "client")]
pub(crate) fn call(operation: &'static str, method: &reqwest::Method) -> tracing::Span {
    tracing::info_span!(
        "call",
        operation,
        method = method.as_str(),
        status = Empty,
        attempts = Empty,
        latency_ms = Empty,
        error = Empty,
    )
}

/// The span of one attempt of a call (1 for the first).
#[cfg(feature = "client")]
pub(crate) fn attempt(number: u32) -> tracing::Span {
    tracing::info_span!(
        "attempt",
        attempt = number,
        status = Empty,
        latency_ms = Empty,
        error = Empty,
        retry_in_ms = Empty
    )
}

/// Records an attempt's or a call's end on `span`: the status answered, or the kind of failure.
#[cfg(feature = "client")]
pub(crate) fn ended(
    span: &tracing::Span,
    status: Option<u16>,
    error: Option<&'static str>,
    elapsed: std::time::Duration,
) {
    if let Some(status) = status {
        span.record("status", status);
    }
    if let Some(error) = error {
        span.record("error", error);
    }
    span.record("latency_ms", millis(elapsed));
}
