//! The shared core of a generated client ([`Core`]): built once from the [`Settings`], cloned
//! cheaply, and every method generated code calls on it: the send paths (a decoded body, no
//! body, the body with its status and headers, text, raw bytes as they arrive) and the loop of
//! attempts behind them (retries, redirects), the encoding of request bodies and object
//! parameters, and the streams of paginated lists.
//!
//! What these are made of sits below, each in a module that does not name the core: the
//! request one hop sends (`call`, reading the core through an [`Endpoint`]), the bodies
//! (`encode`), the pages (`pager`), the retry policy (`retry`), the reading of answers
//! (`transfer`).

use super::call::{Call, CallBody, Endpoint, Presented, present};
use super::encode;
use super::error::{Error, ErrorTypes, api_error};
use super::pager::{Items, Pager};
use super::provided::{Provided, providers_of};
use super::redact::Redactor;
use super::retry::parse_retry_after;
use super::settings::{Settings, http_client_builder};
use super::sign;
use super::token::TokenCache;
use super::transfer::{
    Answer, BodyError, Download, DownloadBody, Received, Response, Upload, decode, read_body, text_of,
};
use crate::error::ErrorShape;
use crate::json::FromJson;
use crate::page::Paging;
use crate::validate::Validate;
use bytes::Bytes;
use futures_util::stream;
use reqwest::header::{HeaderValue, RETRY_AFTER};
use std::sync::Arc;
use std::time::Duration;

/// The shared core of a generated client: settings and the HTTP client.
#[derive(Debug, Clone)]
pub struct Core {
    pub(super) settings: Arc<Settings>,
    pub(super) http: reqwest::Client,
    pub(super) base: reqwest::Url,
    /// The credentials, ready to send, by scheme name; and `User-Agent`, built once.
    pub(super) credentials: Arc<Vec<(&'static str, Presented)>>,
    /// The token providers, by scheme name: asked before each attempt that needs them.
    pub(super) providers: Arc<Vec<(&'static str, TokenCache)>>,
    /// Takes the secrets the credentials hold out of every error the client reports (a
    /// service echoing the caller's token must not put it into the caller's logs).
    pub(super) redactor: Redactor,
    pub(super) user_agent: HeaderValue,
}

impl Core {
    /// Builds the core; installs ring as rustls' crypto provider unless one is installed.
    pub fn new(settings: Settings) -> Result<Self, Error> {
        let mut base_text = settings.base_url.trim_end_matches('/').to_owned();
        base_text.push('/');
        let base = reqwest::Url::parse(&base_text)
            .map_err(|e| Error::Config(format!("the base URL {:?} does not parse: {e}", settings.base_url)))?;
        let http = match &settings.http {
            Some(http) => http.clone(),
            None => http_client_builder()
                .build()
                .map_err(|e| Error::Config(format!("the HTTP client cannot be built: {e}")))?,
        };
        let credentials = Arc::new(present(&settings)?);
        let redactor = Redactor::new(&settings);
        let user_agent = HeaderValue::from_str(&settings.user_agent)
            .map_err(|_| Error::Config("the user agent holds characters a header cannot".into()))?;
        let providers = Arc::default();
        Ok(Core { settings: Arc::new(settings), http, base, credentials, redactor, user_agent, providers })
    }

    /// This core getting the bearer tokens of some schemes from token providers, by scheme
    /// name; a scheme the API does not declare, or one not bearer, fails with [`Error::Config`].
    pub(super) fn with_providers(mut self, providers: Vec<(String, TokenCache)>) -> Result<Self, Error> {
        self.providers = Arc::new(providers_of(self.settings.schemes, providers)?);
        Ok(self)
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Sends a call and decodes its answer as `T`.
    pub async fn send<T: FromJson>(&self, call: Call) -> Result<T, Error> {
        let answer = self.execute(&call).await?;
        decode(&answer.body, &self.redactor).map(|(body, _)| body)
    }

    /// Sends a call whose answer has no body.
    pub async fn send_empty(&self, call: Call) -> Result<(), Error> {
        self.execute(&call).await.map(|_| ())
    }

    /// Sends a call; the decoded body with the status and headers.
    pub async fn send_with_response<T: FromJson>(&self, call: Call) -> Result<Response<T>, Error> {
        let answer = self.execute(&call).await?;
        let (body, not_understood) = decode(&answer.body, &self.redactor)?;
        Ok(Response { status: answer.status, headers: answer.headers, body, not_understood })
    }

    /// Sends a call; the answer undecoded (for operations whose statuses answer different
    /// bodies: generated code decodes by status with [`decode_body`](super::decode_body)).
    pub async fn send_raw(&self, call: Call) -> Result<Answer, Error> {
        self.execute(&call).await
    }

    /// Sends a call whose answer has no body; its status and headers.
    pub async fn send_empty_with_response(&self, call: Call) -> Result<Response<()>, Error> {
        let answer = self.execute(&call).await?;
        Ok(Response { status: answer.status, headers: answer.headers, body: (), not_understood: Vec::new() })
    }

    /// Sends a call, retrying as the policy allows; the body of a 2xx answer.
    async fn execute(&self, call: &Call) -> Result<Answer, Error> {
        match self.run(call, false).await? {
            Outcome::Read(answer) => Ok(answer),
            Outcome::Open(download) => Ok(Answer {
                status: download.status,
                headers: download.headers.clone(),
                body: Received::new(download.bytes(self.settings.max_response_bytes).await?.to_vec(), &self.redactor),
            }),
        }
    }

    /// Sends a call whose answer is raw bytes, retrying as the policy allows until a success
    /// starts arriving; its body is read by the caller, as it comes.
    pub async fn send_download(&self, call: Call) -> Result<Download, Error> {
        Ok(match self.run(&call, true).await? {
            Outcome::Open(download) => download,
            Outcome::Read(answer) => Download {
                status: answer.status,
                headers: answer.headers,
                body: DownloadBody::Read(Some(Bytes::from(answer.body.into_bytes()))),
                redactor: self.redactor.clone(),
            },
        })
    }

    /// Sends a call whose answer is text (at most the response limit).
    pub async fn send_text(&self, call: Call) -> Result<String, Error> {
        let answer = self.execute(&call).await?;
        text_of(answer.body.into_bytes(), &self.redactor)
    }

    /// Serializes a request body, validating it first when the client validates requests.
    pub fn body<T: serde::Serialize + Validate>(&self, body: &T) -> Result<CallBody, Error> {
        encode::json_body(body, self.validates())
    }

    /// Validates a request body when the client validates requests.
    pub fn check<T: Validate>(&self, body: &T) -> Result<(), Error> {
        encode::check(body, self.validates())
    }

    /// A form body (`application/x-www-form-urlencoded`) of these fields, lists as repeated
    /// keys (generated code lists them, after [`Core::check`]).
    pub fn form(&self, fields: &[(&'static str, String)]) -> CallBody {
        encode::form(fields)
    }

    /// A form body of nested objects and lists, in brackets (`items[0][price]=x`, see
    /// [`crate::form`]): `application/x-www-form-urlencoded`, or with `multipart` a
    /// `multipart/form-data` body of one text part per pair; with `indexed` every list has
    /// indexes (`expand[0]=a`), the top level's too. Validated first when the client validates
    /// requests.
    pub fn nested_form<T: serde::Serialize + Validate>(
        &self,
        body: &T,
        multipart: bool,
        indexed: bool,
    ) -> Result<CallBody, Error> {
        encode::nested_form(body, multipart, indexed, self.validates())
    }

    /// Adds the pairs of an object query parameter to `query`. With `deep` (`style:
    /// deepObject`) every value goes under the parameter's name in brackets, as a form of
    /// nested values writes it ([`crate::form`]: `filter[status]=open`, `range[ids][0]=1`,
    /// `metadata[k]=v`); without (`style: form`, exploded), each field is a query parameter of
    /// its own (`status=open&limit=2`, a list as repeated keys). An empty object or list sends
    /// nothing, as OpenAPI writes it. Validated first when the client validates requests,
    /// the violations named as the query reads (`query.filter[status]`). Fails on a map key
    /// holding `]`.
    pub fn query_object<T: serde::Serialize + Validate>(
        &self,
        query: &mut Vec<(std::borrow::Cow<'static, str>, String)>,
        name: &'static str,
        value: &T,
        deep: bool,
    ) -> Result<(), Error> {
        encode::query_object(query, name, value, deep, self.validates())
    }

    /// The JSON text of a parameter written as JSON (OpenAPI's `content: application/json`:
    /// `filter={"a":1}`), validated first when the client validates requests, the violations
    /// named `query.filter/a` (`place` is `query` or `header`).
    pub fn json_param<T: serde::Serialize + Validate>(
        &self,
        place: &str,
        name: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        encode::json_param(place, name, value, self.validates())
    }

    /// The part of a multipart body's field that is not a scalar (an object, a map, a list of
    /// objects): its JSON, one part of `content_type` (OpenAPI's default `application/json`).
    pub fn json_part<T: serde::Serialize>(
        &self,
        name: &str,
        value: &T,
        content_type: &str,
    ) -> Result<crate::media::Part, Error> {
        encode::json_part(name, value, content_type)
    }

    /// A `multipart/form-data` body of these parts (generated code lists them).
    pub fn multipart(&self, parts: &[crate::media::Part]) -> CallBody {
        encode::multipart(parts)
    }

    /// A text body in `media_type`.
    pub fn text(&self, text: &str, media_type: &str) -> CallBody {
        encode::text(text, media_type)
    }

    /// A raw body of these bytes in `media_type` (a raw alternative of a body offered in
    /// several media types), sent exactly as given.
    pub fn bytes(&self, bytes: &bytes::Bytes, media_type: &str) -> CallBody {
        CallBody::Raw { content_type: media_type.to_owned(), bytes: bytes.clone() }
    }

    /// A raw body in `media_type`, from an [`Upload`].
    pub fn upload(&self, upload: &Upload, media_type: &str) -> CallBody {
        encode::upload(upload, media_type)
    }

    /// Whether the client validates requests before sending them.
    fn validates(&self) -> bool {
        self.settings.validate_requests
    }
}

// Paginated lists.
impl Core {
    /// [`Core::stream`] of a call whose building can fail (an object query parameter that
    /// does not validate): the stream's only item is then that error.
    pub fn try_stream<I>(&self, call: Result<Call, Error>, paging: &'static Paging) -> Items<I>
    where
        I: FromJson + Send + 'static,
    {
        match call {
            Ok(call) => self.stream(call, paging),
            Err(error) => Box::pin(stream::once(async move { Err(error) })),
        }
    }

    /// Every item of every page, following the operation's pagination (`paging`) with the
    /// original query; fails after `max_pages` pages or when the service repeats a cursor.
    pub fn stream<I>(&self, call: Call, paging: &'static Paging) -> Items<I>
    where
        I: FromJson + Send + 'static,
    {
        // Only decoding a page's items is generic; following the pages is `Pager`'s (compiled
        // once, not once per paginated operation), sending them this core's.
        struct State<I> {
            core: Core,
            pager: Pager,
            items: std::vec::IntoIter<I>,
        }
        let pager = Pager::new(call, paging, self.base.clone(), self.settings.max_pages, self.redactor.clone());
        let state = State::<I> { core: self.clone(), pager, items: Vec::new().into_iter() };
        Box::pin(stream::unfold(state, move |mut state| async move {
            loop {
                if let Some(item) = state.items.next() {
                    return Some((Ok(item), state));
                }
                let page = match state.pager.next_call()? {
                    Ok(call) => state.core.execute(&call).await.and_then(|answer| state.pager.read(answer)),
                    Err(error) => Err(error),
                };
                let items = page.and_then(|(items, page)| state.pager.decode_items::<I>(items, &page));
                match items {
                    Ok(items) => state.items = items.into_iter(),
                    Err(error) => return Some((Err(error), state)),
                }
            }
        }))
    }
}

// The loop of attempts behind every send path.
impl Core {
    /// What building a request reads of this core.
    fn endpoint<'a>(&'a self, credentials: &'a [(&'static str, Presented)]) -> Endpoint<'a> {
        Endpoint {
            base: &self.base,
            settings: &self.settings,
            credentials,
            http: &self.http,
            user_agent: &self.user_agent,
        }
    }

    /// Sends a call, retrying as the policy allows: a 2xx answer read whole, or (with `open`)
    /// before its body.
    async fn run(&self, call: &Call, open: bool) -> Result<Outcome, Error> {
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
        // A call answered 401 is sent once more with new tokens (see `Builder::token_cache`).
        let mut reauthorized = false;
        loop {
            let Some(left) = deadline.checked_sub(started.elapsed()).filter(|left| !left.is_zero()) else {
                return Err(Error::Timeout(deadline));
            };
            let provided = Provided::fetch(call, &self.credentials, &self.providers).await;
            let provided = provided.map_err(|e| self.redactor.error(e))?;
            #[cfg(feature = "tracing")]
            let (span, attempt_started) =
                (crate::trace::attempt(retry + u32::from(reauthorized) + 1), std::time::Instant::now());
            #[cfg(feature = "tracing")]
            let outcome =
                tracing::Instrument::instrument(self.attempt(call, left, open, &provided), span.clone()).await;
            #[cfg(not(feature = "tracing"))]
            let outcome = self.attempt(call, left, open, &provided).await;
            let wait = match &outcome {
                Attempt::Done(_) | Attempt::Open(_) => None,
                Attempt::Status { status, retry_after, .. } => {
                    policy.wait_after_status(*status, *retry_after, retry + 1)
                }
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
                tracing::Span::current().record("attempts", retry + u32::from(reauthorized) + 1);
            }
            if let Attempt::Status { status, headers, .. } = &outcome
                && !reauthorized
                && !streamed
                && provided.refused(*status, headers)
            {
                reauthorized = true;
                provided.invalidate().await;
                continue;
            }
            match retried {
                Some(wait) => {
                    retry += 1;
                    tokio::time::sleep(wait).await;
                }
                _ => {
                    let redactor = provided.redactor(&self.redactor);
                    let shapes = (self.settings.errors, call.error_bodies);
                    return outcome.into_result(shapes, call.errors).map_err(|e| redactor.error(e));
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
    async fn attempt(&self, call: &Call, left: Duration, open: bool, provided: &Provided) -> Attempt {
        let timeout = self.settings.timeout.min(left);
        let ends = tokio::time::Instant::now() + timeout;
        let held: std::borrow::Cow<'_, [(&'static str, Presented)]> = if provided.is_empty() {
            std::borrow::Cow::Borrowed(self.credentials.as_slice())
        } else {
            self.credentials.iter().cloned().chain(provided.presented()).collect()
        };
        let redactor = provided.redactor(&self.redactor);
        let endpoint = self.endpoint(&held);
        let mut hop = match call.first_hop(&endpoint) {
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
            // The signer signs each hop to the API's origin, last (see `sign`).
            let signer = self.settings.signer.as_ref().filter(|_| hop.credentials);
            let request = call
                .request(&endpoint, &hop, remaining)
                .and_then(|request| sign::signed(request, signer, call.operation, call.alternative(&endpoint)));
            let request = match request {
                Ok(request) => request,
                Err(error) => return Attempt::Failed(error),
            };
            let response = match self.http.execute(request).await {
                Ok(response) => response,
                Err(error) if error.is_timeout() => return Attempt::Failed(Error::Timeout(timeout)),
                Err(error) => return Attempt::Failed(Error::Transport(error)),
            };
            let status = response.status().as_u16();
            match call.redirect(&endpoint, &hop, status, response.headers()) {
                Ok(Some(next)) if redirects < MAX_REDIRECTS => {
                    redirects += 1;
                    hop = next;
                }
                Ok(_) => break response,
                Err(error) => return Attempt::Failed(error),
            }
        };
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        if open && (200..300).contains(&status) {
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
            Attempt::Done(Answer { status, headers, body: Received::new(body, &redactor) })
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
        Error::Redirect(_) => "redirect",
        Error::Config(_) => "config",
        Error::Token { .. } => "token",
    }
}

/// Most redirects one attempt follows (as reqwest's default policy): the answer past them is
/// the attempt's answer (an [`Error::Api`] of its 3xx status).
const MAX_REDIRECTS: usize = 10;

/// A success, read or open.
enum Outcome {
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
    /// `shapes`: the API's error body and the operation's other ones, by status.
    fn into_result(
        self,
        shapes: (&'static ErrorShape, &'static [(u16, &'static ErrorShape)]),
        types: Option<ErrorTypes>,
    ) -> Result<Outcome, Error> {
        match self {
            Attempt::Done(answer) => Ok(Outcome::Read(answer)),
            Attempt::Open(download) => Ok(Outcome::Open(download)),
            Attempt::Status { status, headers, body, .. } => {
                let shape = ErrorShape::of_status(shapes.1, status, shapes.0);
                Err(api_error(status, headers, body, shape, types))
            }
            Attempt::Failed(error) => Err(error),
        }
    }
}
