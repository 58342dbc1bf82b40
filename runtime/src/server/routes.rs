//! The router a generated server builds: one handler per operation, set by the service, and
//! the same steps before each (limits, authentication unless the operation is public, body
//! transport, parsing) and after it (status, headers, body).
//!
//! A generated `RouterBuilder` wraps [`Routes`]: one setter per operation, so a service that
//! serves four operations writes four functions; [`Routes::build`] refuses a service that
//! leaves any unset and names them ([`MissingOperations`]); [`Routes::build_partial`]
//! answers 501 for them instead. The generated `router(service)` sets every operation from
//! the group traits, whose methods have no default, so a forgotten one is a compile error.

use super::input::PathValue;
use super::{
    ApiError, Authenticator, Context, Input, OperationInfo, Refusal, ServerConfig, authenticate, challenge, dispatch,
    insufficient_scope, json_response,
};
use crate::auth::{KeyIn, SchemeKind};
use crate::error::ErrorShape;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodFilter, MethodRouter};
use futures_util::future::Either;
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;

/// A boxed response future, what every handler's wrapper returns.
pub type Reply = Pin<Box<dyn Future<Output = Response> + Send + 'static>>;

/// An operation's handler, as the router holds it: parses the [`Input`], calls the service's
/// function and answers. The principal is `None` on public operations.
type Erased<P> = Arc<dyn Fn(Input, Context<Option<P>>) -> Reply + Send + Sync>;

/// Who may call an operation, chosen by generated code: [`Authenticated`] or [`Public`].
pub trait Access<P>: Copy + Send + Sync + 'static {
    /// The principal the handler receives.
    type Principal: Send + 'static;
    /// The principal from what the router established (`None` when it did not authenticate);
    /// `None` when the operation needs one and there is none.
    fn principal(found: Option<P>) -> Option<Self::Principal>;
}

/// An operation that needs credentials of one of its schemes; its handler gets the principal.
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug, Clone, Copy)]
pub struct Authenticated;

/// A public operation: the authenticator is not called; its handler gets [`super::Anonymous`].
#[doc(hidden)] // Generated code names it through `codegen`.
#[derive(Debug, Clone, Copy)]
pub struct Public;

impl<P: Send + 'static> Access<P> for Authenticated {
    type Principal = P;
    fn principal(found: Option<P>) -> Option<P> {
        found
    }
}

impl<P> Access<P> for Public {
    type Principal = super::Anonymous;
    fn principal(_: Option<P>) -> Option<super::Anonymous> {
        Some(super::Anonymous)
    }
}

/// How a handler's value is written with a status and the negotiated media type: generated
/// code passes [`json`], [`text`], [`download`], [`empty`] or [`bodiless`]. A value that cannot be written
/// is an error, answered in the API's error shape.
pub type Answer<T> = fn(T, u16, &'static str) -> Result<Response, ApiError>;

/// Writes the value as a JSON body (`application/json`, or the JSON media type negotiated).
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn json<T: Serialize>(value: T, status: u16, media_type: &'static str) -> Result<Response, ApiError> {
    let mut response = json_response(status, &value)?;
    if media_type != "application/json" && crate::media::encoding(media_type) == crate::media::Encoding::Json {
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    }
    Ok(response)
}

/// Writes text in the negotiated media type (`text/csv; charset=utf-8`, see
/// [`crate::media::text_content_type`]).
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn text(value: String, status: u16, media_type: &'static str) -> Result<Response, ApiError> {
    let content_type = crate::media::text_content_type(media_type);
    let content_type =
        HeaderValue::from_str(&content_type).unwrap_or(HeaderValue::from_static("text/plain; charset=utf-8"));
    Ok((status_code(status), [(header::CONTENT_TYPE, content_type)], value).into_response())
}

/// Writes bytes, from memory or a stream, in the negotiated media type, or in the one the
/// handler named within it (see [`super::Download::content_type`]).
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn download(value: super::Download, status: u16, media_type: &'static str) -> Result<Response, ApiError> {
    let content_type = download_type(value.content_type.as_deref(), media_type)?;
    Ok((status_code(status), [(header::CONTENT_TYPE, content_type)], value.body).into_response())
}

/// The `Content-Type` of a download: the handler's, when it lies within the negotiated media
/// type (500 otherwise: the handler's bug, never sent as a type the spec does not declare),
/// else the negotiated type, or a common member of it when it is a range.
fn download_type(chosen: Option<&str>, negotiated: &'static str) -> Result<HeaderValue, ApiError> {
    let Some(chosen) = chosen else {
        return Ok(match crate::media::range_default(negotiated) {
            std::borrow::Cow::Borrowed(media) => HeaderValue::from_static(media),
            std::borrow::Cow::Owned(media) => {
                HeaderValue::from_str(&media).unwrap_or(HeaderValue::from_static("application/octet-stream"))
            }
        });
    };
    let concrete = !crate::media::essence(chosen).contains('*');
    match HeaderValue::from_str(chosen) {
        Ok(value) if concrete && crate::media::within(negotiated, chosen) => Ok(value),
        _ => Err(ApiError::internal(format!(
            "the handler answered `Content-Type: {chosen}`, which is not a media type within `{negotiated}`"
        ))),
    }
}

/// Writes a response without body.
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn empty(_: (), status: u16, _: &'static str) -> Result<Response, ApiError> {
    Ok((StatusCode::from_u16(status).unwrap_or(StatusCode::NO_CONTENT), Body::empty()).into_response())
}

/// Writes a HEAD answer: no body, and the `Content-Type` its GET would send (the negotiated
/// media type), as RFC 9110 9.3.2 asks.
#[doc(hidden)] // Generated code names it through `codegen`.
pub fn bodiless(_: (), status: u16, media_type: &'static str) -> Result<Response, ApiError> {
    let content_type = [(header::CONTENT_TYPE, download_type(None, media_type)?)];
    Ok((status_code(status), content_type, Body::empty()).into_response())
}

fn status_code(status: u16) -> StatusCode {
    StatusCode::from_u16(status).unwrap_or(StatusCode::OK)
}

/// The operations a service refuses to leave unimplemented, by name in the spec.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingOperations(pub Vec<&'static str>);

impl fmt::Display for MissingOperations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.0.len();
        let noun = if count == 1 { "operation has" } else { "operations have" };
        write!(f, "{count} {noun} no handler: {}", self.0.join(", "))?;
        write!(f, " (set them, or build with `build_partial` to answer 501 for them)")
    }
}

impl std::error::Error for MissingOperations {}

/// What a handler's future answers: the operation's response `T` or an [`ApiError`], and
/// `Send`, so the router can run it on any thread. Every such future is one: a group trait's
/// method returns `impl Handled<T>`, and an `async fn` implements it.
pub trait Handled<T>: Future<Output = Result<T, ApiError>> + Send {}

impl<T, F: Future<Output = Result<T, ApiError>> + Send> Handled<T> for F {}

/// A handler of one operation: an `async` function (or closure) of the service, the call's
/// [`Context`] `C` and the operation's request `R`, answering its response `T` or an
/// [`ApiError`]. Implemented for every such function; the generated `RouterBuilder`'s setters
/// take one.
pub trait Handler<S, C, R, T>: Fn(Arc<S>, C, R) -> Self::Future + Send + Sync + 'static {
    /// The future the handler returns.
    type Future: Future<Output = Result<T, ApiError>> + Send + 'static;
}

impl<S, C, R, T, F, Fut> Handler<S, C, R, T> for F
where
    F: Fn(Arc<S>, C, R) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T, ApiError>> + Send + 'static,
{
    type Future = Fut;
}

/// The operations of a generated server and the handlers a service set for them.
#[doc(hidden)] // Generated code names it through `codegen`.
pub struct Routes<S: Authenticator> {
    service: Arc<S>,
    operations: &'static [OperationInfo],
    /// The index of each operation in `operations`, by name.
    by_name: BTreeMap<&'static str, usize>,
    errors: &'static ErrorShape,
    handlers: Vec<Option<Erased<S::Principal>>>,
    config: ServerConfig,
}

impl<S: Authenticator> Routes<S> {
    /// No handler set yet; `service` authenticates and is handed to every handler; every
    /// error is written in the API's error shape `errors`.
    pub fn new(service: S, operations: &'static [OperationInfo], errors: &'static ErrorShape) -> Self {
        Routes {
            service: Arc::new(service),
            operations,
            by_name: operations.iter().enumerate().map(|(index, op)| (op.name, index)).collect(),
            errors,
            handlers: operations.iter().map(|_| None).collect(),
            config: ServerConfig::default(),
        }
    }

    /// The limits the router checks ([`ServerConfig`]).
    pub fn set_config(&mut self, config: ServerConfig) {
        self.config = config;
    }

    /// Sets the handler of the operation named `name` in the table (generated setters call
    /// this; an operation the table does not hold is ignored): `parse` reads its request,
    /// `handler` answers it, `answer` writes the value with the operation's status or the one
    /// the handler chose.
    pub fn set<A, R, T, St, F, Fut>(
        &mut self,
        _access: A,
        name: &str,
        parse: fn(&mut Input) -> Result<R, ApiError>,
        answer: Answer<T>,
        handler: F,
    ) where
        A: Access<S::Principal>,
        R: Send + 'static,
        T: Send + 'static,
        St: 'static,
        F: Fn(Arc<S>, Context<A::Principal, St>, R) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<T, ApiError>> + Send + 'static,
    {
        let Some(&index) = self.by_name.get(name) else { return };
        let Some(slot) = self.handlers.get_mut(index) else { return };
        let info: &'static OperationInfo = &self.operations[index];
        let (status, required, link_cursor) = (info.status, info.headers, info.link_cursor);
        let (service, errors) = (Arc::clone(&self.service), self.errors);
        *slot = Some(Arc::new(move |mut input: Input, context: Context<Option<S::Principal>>| {
            let request = match parse(&mut input) {
                Ok(request) => request,
                Err(error) => {
                    let shape = info.error_shape(error.status().as_u16(), errors);
                    return reject(error, shape);
                }
            };
            // The router hands the headers to the input, not a copy: the context gets them back.
            let headers = input.take_headers();
            let Context { principal, operation, method, path, uri, extensions, response, media, .. } = context;
            let Some(principal) = A::principal(principal) else {
                return reject(
                    ApiError::unauthorized("this operation needs credentials"),
                    info.error_shape(401, errors),
                );
            };
            let context = Context {
                principal,
                headers,
                operation,
                method,
                path,
                uri,
                extensions,
                response: response.clone(),
                media,
                status: PhantomData,
            };
            // The request's URI is kept past the handler only for a `Link` to the next page.
            let link_at = link_cursor.map(|cursor| (cursor, context.uri.clone()));
            let future = handler(Arc::clone(&service), context, request);
            Box::pin(async move {
                let result = future.await;
                let (chosen, mut headers, next_page) = response.take();
                if let (Some((cursor, uri)), Some(next)) = (&link_at, next_page) {
                    headers.append(header::LINK, next_link(uri, cursor, &next));
                }
                let result = result.and_then(|value| match required.iter().find(|h| !headers.contains_key(**h)) {
                    Some(missing) => Err(ApiError::internal(format!(
                        "the handler of `{operation}` did not set the response header `{missing}`"
                    ))),
                    None => Ok(value),
                });
                let mut reply = match result.and_then(|value| answer(value, chosen.unwrap_or(status), media)) {
                    Ok(reply) => reply,
                    Err(error) => refusal(error, info, errors),
                };
                if !headers.is_empty() {
                    reply.headers_mut().extend(headers);
                }
                reply
            })
        }));
    }

    /// The operations without a handler, in spec order: what [`Routes::build_partial`]
    /// answers 501 for.
    pub fn unimplemented(&self) -> Vec<&'static str> {
        self.operations.iter().zip(&self.handlers).filter(|(_, h)| h.is_none()).map(|(op, _)| op.name).collect()
    }

    /// The router, or the operations left without a handler.
    pub fn build(self) -> Result<axum::Router, MissingOperations> {
        match self.unimplemented() {
            missing if missing.is_empty() => Ok(self.build_partial()),
            missing => Err(MissingOperations(missing)),
        }
    }

    /// The router; operations without a handler answer 501 (after authentication).
    ///
    /// Operations are grouped by their axum route ([`super::dispatch`]): each path with every
    /// segment holding a parameter made a positional capture, so operations differing only
    /// inside such segments, or by selectors, share one route and are told apart by the
    /// runtime. A request reaches the most specific operation matching it whichever route
    /// matchit picks: each route also tries the operations of the routes that overlap it.
    pub fn build_partial(self) -> axum::Router {
        let errors = self.errors;
        let config = Arc::new(self.config);
        let mut by_route: BTreeMap<String, Vec<Endpoint<S::Principal>>> = BTreeMap::new();
        for (info, handler) in self.operations.iter().zip(self.handlers) {
            let handler = handler.unwrap_or_else(|| {
                let name = info.name;
                Arc::new(move |_, _| reject(ApiError::not_implemented(name), errors))
            });
            let route = dispatch::Route::parse(info.path);
            by_route.entry(dispatch::axum_route(&route)).or_default().push(Endpoint { info, route, handler });
        }
        let mut router = axum::Router::new();
        for (route, endpoints) in with_overlapping(by_route) {
            router = router.route(&route, method_router(&self.service, endpoints, &config, errors));
        }
        // A stand-in for a refused head (`GET /`) reaches the fallback, a method's fallback or
        // an operation's dispatch: each answers its refusal first.
        router.fallback(move |request: Request| async move {
            refused(&request, errors)
                .unwrap_or_else(|| ApiError::not_found("no operation matches this path").into_response_with(errors))
        })
    }
}

/// A request the transport refused before the router could read it (under
/// [`crate::listener::serve`], a head past hyper's own limits, handed on as a stand-in request
/// carrying this): the router answers the error in the API's shape.
#[derive(Debug, Clone)]
pub struct Refused(pub ApiError);

/// Each axum route with its own operations and those of every route overlapping it
/// ([`dispatch::overlapping`]): matchit answers `/r2/files/x` with `/r2/files/{p2}` alone,
/// where `GET /r2/files/{id}.json` does not match but `GET /r2/{kind}/x` does, and a user of
/// any router of path templates expects that operation to answer, not a 404.
fn with_overlapping<P>(by_route: BTreeMap<String, Vec<Endpoint<P>>>) -> Vec<(String, Vec<Endpoint<P>>)> {
    let routes: Vec<(String, Vec<Endpoint<P>>)> = by_route.into_iter().collect();
    let shapes: Vec<&dispatch::Route> = routes.iter().map(|(_, own)| &own[0].route).collect();
    let overlapping = dispatch::overlapping(&shapes);
    let mut out = Vec::with_capacity(routes.len());
    for ((route, own), others) in routes.iter().zip(overlapping) {
        let mut endpoints = own.clone();
        for other in others {
            endpoints.extend(routes[other].1.iter().cloned());
        }
        out.push((route.clone(), endpoints));
    }
    out
}

struct Endpoint<P> {
    info: &'static OperationInfo,
    /// `info.path`, parsed once.
    route: dispatch::Route,
    handler: Erased<P>,
}

impl<P> Clone for Endpoint<P> {
    fn clone(&self) -> Self {
        Endpoint { info: self.info, route: self.route.clone(), handler: Arc::clone(&self.handler) }
    }
}

/// The methods of one axum route, each trying its operations most specific first; 405 with
/// `Allow` for a method no operation of a matching path has, 404 when no path matches.
fn method_router<S: Authenticator>(
    service: &Arc<S>,
    mut endpoints: Vec<Endpoint<S::Principal>>,
    config: &Arc<ServerConfig>,
    errors: &'static ErrorShape,
) -> MethodRouter {
    endpoints.sort_by(|a, b| dispatch::specificity((&a.route, a.info), (&b.route, b.info)));
    let all: Arc<[Arc<Endpoint<S::Principal>>]> = endpoints.into_iter().map(Arc::new).collect();
    let mut by_method: BTreeMap<&str, Vec<Arc<Endpoint<S::Principal>>>> = BTreeMap::new();
    for endpoint in all.iter() {
        by_method.entry(endpoint.info.method).or_default().push(Arc::clone(endpoint));
    }
    let mut methods = MethodRouter::new();
    for (method, candidates) in by_method {
        let Ok(method) = Method::from_bytes(method.as_bytes()) else { continue };
        let Ok(filter) = MethodFilter::try_from(method) else { continue };
        let candidates: Arc<[Arc<Endpoint<S::Principal>>]> = candidates.into();
        let (service, config, all) = (Arc::clone(service), Arc::clone(config), Arc::clone(&all));
        methods = methods.on(filter, move |request: Request| {
            // The choice is made before the future is built, so the future axum boxes for
            // each request is the handler's steps alone (a few hundred bytes, not kilobytes).
            match choose(&candidates, &all, &request, &config, errors) {
                Choice::Handle(endpoint, path) => {
                    #[cfg(feature = "tracing")]
                    let info = endpoint.info;
                    let (parts, body) = request.into_parts();
                    let answer = handle(Arc::clone(&service), parts, body, path, endpoint, Arc::clone(&config), errors);
                    #[cfg(feature = "tracing")]
                    let answer = crate::trace::request(info, answer);
                    Either::Left(answer)
                }
                Choice::Refuse(refusal) => Either::Right(std::future::ready(refusal)),
            }
        });
    }
    let config = Arc::clone(config);
    methods.fallback(move |request: Request| {
        let (all, config) = (Arc::clone(&all), Arc::clone(&config));
        async move {
            refused(&request, errors)
                .or_else(|| config.refuse_uri(request.uri()).map(|error| error.into_response_with(errors)))
                .unwrap_or_else(|| unmatched(&all, request.uri().path(), errors))
        }
    })
}

/// The first operation of `candidates` (one method's, most specific first) whose path and
/// selectors the request matches, with its path parameters decoded; else the refusal saying
/// what did not match (or the refusal a stand-in for a refused head carries). A path past the
/// URI limit is refused before any operation's path is tried.
fn choose<P>(
    candidates: &[Arc<Endpoint<P>>],
    all: &[Arc<Endpoint<P>>],
    request: &Request,
    config: &ServerConfig,
    errors: &'static ErrorShape,
) -> Choice<P> {
    if let Some(refusal) = refused(request, errors) {
        return Choice::Refuse(refusal);
    }
    if let Some(error) = config.refuse_uri(request.uri()) {
        return Choice::Refuse(error.into_response_with(errors));
    }
    let (path, query, headers) = (request.uri().path(), request.uri().query().unwrap_or_default(), request.headers());
    let matched: Vec<_> =
        candidates.iter().filter_map(|e| dispatch::match_path(&e.route, path).map(|params| (e, params))).collect();
    if matched.is_empty() {
        return Choice::Refuse(unmatched(all, path, errors));
    }
    let infos: Vec<&OperationInfo> = matched.iter().map(|(endpoint, _)| endpoint.info).collect();
    // A selector sent twice selects nothing, whichever operation its values would pick.
    // Refused before one operation is chosen: in the error bodies of the first that matched.
    if let Some(error) = dispatch::refuse_repeated(&infos, headers, query) {
        return Choice::Refuse(refusal(error, infos[0], errors));
    }
    let Some((endpoint, params)) = matched.into_iter().find(|(e, _)| dispatch::selected(e.info, headers, query)) else {
        return Choice::Refuse(refusal(dispatch::refuse_selectors(&infos, headers, query), infos[0], errors));
    };
    match decode_path(params) {
        Ok(path) => Choice::Handle(Arc::clone(endpoint), path),
        Err(error) => Choice::Refuse(refusal(error, endpoint.info, errors)),
    }
}

/// The path parameters percent-decoded, each of which must then be UTF-8 (and as sent, where a
/// style's prefix is looked for).
fn decode_path(params: Vec<(&'static str, &str)>) -> Result<Vec<(Cow<'static, str>, PathValue)>, ApiError> {
    params
        .into_iter()
        .map(|(name, raw)| match String::from_utf8(dispatch::percent_decode(raw)) {
            Ok(decoded) => Ok((Cow::Borrowed(name), PathValue { decoded, raw: raw.to_owned() })),
            Err(_) => Err(ApiError::bad_request("a path parameter is not valid UTF-8 once decoded")),
        })
        .collect()
}

/// The answer to a stand-in for a refused head ([`Refused`]), in the API's error shape.
fn refused(request: &Request, errors: &'static ErrorShape) -> Option<Response> {
    request.extensions().get::<Refused>().map(|Refused(error)| error.clone().into_response_with(errors))
}

/// What [`choose`] found for a request.
enum Choice<P> {
    /// The operation, with the request's path parameters decoded.
    Handle(Arc<Endpoint<P>>, Vec<(Cow<'static, str>, PathValue)>),
    /// The answer when no operation takes the request.
    Refuse(Response),
}

/// 405 with `Allow` naming the methods of the operations whose path matches, or 404 when none
/// does.
fn unmatched<P>(all: &[Arc<Endpoint<P>>], path: &str, errors: &'static ErrorShape) -> Response {
    let mut allow: Vec<&str> = Vec::new();
    let mut first: Option<&OperationInfo> = None;
    for endpoint in all.iter().filter(|e| dispatch::match_path(&e.route, path).is_some()) {
        first = first.or(Some(endpoint.info));
        if !allow.contains(&endpoint.info.method) {
            allow.push(endpoint.info.method);
        }
    }
    let Some(first) = first else {
        return ApiError::not_found("no operation matches this path").into_response_with(errors);
    };
    // In the error bodies of the first operation of the path.
    let allow = HeaderValue::from_str(&allow.join(", ")).unwrap_or_else(|_| HeaderValue::from_static(""));
    let refused = ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "the method is not allowed on this path");
    let mut response = refusal(refused, first, errors);
    response.headers_mut().insert(header::ALLOW, allow);
    response
}

/// The steps before every handler, in order: limits, authentication, path parameters, body
/// size and type; then the handler, with a panic answered 500.
#[allow(clippy::too_many_arguments)] // The request's parts, where it goes, and the router's settings.
#[allow(clippy::manual_async_fn)] // On purpose: see the comment on the async block.
fn handle<S: Authenticator>(
    service: Arc<S>,
    parts: axum::http::request::Parts,
    body: Body,
    path: Vec<(Cow<'static, str>, PathValue)>,
    endpoint: Arc<Endpoint<S::Principal>>,
    config: Arc<ServerConfig>,
    errors: &'static ErrorShape,
) -> impl Future<Output = Response> + Send {
    // An async block, not an async fn: a fn's arguments would be copied into its future
    // beside the captured ones, and the request's parts alone are 224 bytes.
    async move {
        let info = endpoint.info;
        let refuse = |error: ApiError| refusal(error, info, errors);
        if let Some(refusal) = config.refuse(&parts, info.streams) {
            return refuse(refusal);
        }
        let principal = if info.auth.is_empty() {
            None
        } else {
            match authenticate(&*service, &parts, info.auth, info.scopes).await {
                Ok(principal) => Some(principal),
                Err(Refusal::Credentials(error)) => return with_challenge(refuse(error), info.auth),
                Err(Refusal::Scopes { required, missing }) => {
                    return insufficient_scope(&required, &missing, info.error_shape(403, errors));
                }
            }
        };
        let media = match crate::media::negotiate(header_text(&parts.headers, header::ACCEPT), info.produces) {
            Some(media) => media,
            None if info.produces.is_empty() => "application/json",
            None => {
                let message =
                    format!("the operation answers {}; `Accept` allows none of them", info.produces.join(", "));
                return refuse(ApiError::new(StatusCode::NOT_ACCEPTABLE, message));
            }
        };
        let content_type = header_text(&parts.headers, header::CONTENT_TYPE);
        let accepted = content_type.and_then(|ct| crate::media::accepts(info.consumes, ct)).is_some();
        let length = header_text(&parts.headers, header::CONTENT_LENGTH).and_then(|l| l.trim().parse::<u64>().ok());
        let declares_body = length.is_some_and(|l| l > 0) || parts.headers.contains_key(header::TRANSFER_ENCODING);
        if info.has_body && declares_body && !accepted {
            return refuse(unsupported(info.consumes));
        }
        let (body, stream) = if info.streams {
            (axum::body::Bytes::new(), Some(super::BodyStream::new(body, config.upload_limit)))
        } else if http_body::Body::is_end_stream(&body) {
            (axum::body::Bytes::new(), None) // No body (most GETs): nothing to collect.
        } else {
            match axum::body::to_bytes(body, config.body_limit).await {
                Ok(bytes) => (bytes, None),
                Err(error) => return refuse(super::body::body_failure(&error, config.body_limit)),
            }
        };
        if info.has_body && !info.streams && !body.is_empty() && !accepted {
            return refuse(unsupported(info.consumes));
        }
        let ready = Ready { path, body, stream, principal, media };
        let reply = match start(&endpoint, parts, ready, &config) {
            Ok(reply) => reply,
            Err(error) => return refuse(error),
        };
        match super::CatchUnwind(AssertUnwindSafe(reply)).await {
            Ok(response) => response,
            Err(()) => refuse(ApiError::internal("the handler failed unexpectedly")),
        }
    }
}

/// What [`handle`] found before the handler runs.
struct Ready<P> {
    path: Vec<(Cow<'static, str>, PathValue)>,
    body: axum::body::Bytes,
    stream: Option<super::BodyStream>,
    principal: Option<P>,
    media: &'static str,
}

/// The handler's future for a request past the router's checks: its input and context built,
/// the handler called (a panic while parsing or in its synchronous part answers 500, like one
/// in its future). A plain function, so the future of [`handle`] does not keep these values
/// across its last wait.
fn start<P>(
    endpoint: &Endpoint<P>,
    parts: axum::http::request::Parts,
    ready: Ready<P>,
    config: &ServerConfig,
) -> Result<Reply, ApiError> {
    let info = endpoint.info;
    let Ready { path, body, stream, principal, media } = ready;
    let mut input = Input::new(path, parts.uri.query().unwrap_or_default(), parts.headers, body, info.has_body)
        .with_max_form_fields(config.max_form_fields);
    if let Some(stream) = stream {
        input = input.with_stream(stream);
    }
    for selector in info.select {
        if let dispatch::Selector::Query(name, _) = selector {
            input.accept_query(name); // A selector is the route's, not a parameter.
        }
    }
    for scheme in info.auth.iter().flat_map(|schemes| schemes.iter()) {
        if let SchemeKind::ApiKey { location: KeyIn::Query, name } = scheme.kind {
            input.accept_query(name); // A key in the query is a credential, not a parameter.
        }
    }
    let mut context = Context::new(principal); // Its headers come back from the input.
    context.operation = info.name;
    context.method = parts.method;
    context.path = info.path;
    context.uri = parts.uri;
    context.media = media;
    context.extensions = parts.extensions;
    std::panic::catch_unwind(AssertUnwindSafe(|| (endpoint.handler)(input, context)))
        .map_err(|_| ApiError::internal("the handler failed unexpectedly"))
}

/// `Link: <path?query>; rel="next"`: the request's path and query with `cursor` set to `next`
/// (a reference relative to the request, as RFC 8288 allows).
fn next_link(uri: &axum::http::Uri, cursor: &str, next: &str) -> HeaderValue {
    let kept = form_urlencoded::parse(uri.query().unwrap_or_default().as_bytes()).filter(|(key, _)| key != cursor);
    let mut query = form_urlencoded::Serializer::new(String::new());
    for (key, value) in kept {
        query.append_pair(&key, &value);
    }
    query.append_pair(cursor, next);
    let link = format!("<{}?{}>; rel=\"next\"", uri.path(), query.finish());
    HeaderValue::from_str(&link).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A header's value as text, when it is text.
fn header_text(headers: &axum::http::HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// The 415 for a body of a media type the operation does not take, naming those it takes.
fn unsupported(consumes: &[&str]) -> ApiError {
    let message = match consumes {
        ["application/json"] => "the body must be JSON, sent with `Content-Type: application/json`".to_owned(),
        _ => format!("the body must be sent as one of: {}", consumes.join(", ")),
    };
    ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message)
}

/// A 401 of the router with the challenges of the operation's schemes (none for API keys,
/// which have no standard challenge).
fn with_challenge(mut response: Response, schemes: &[&'static [crate::auth::Scheme]]) -> Response {
    if response.status() == StatusCode::UNAUTHORIZED {
        match challenge(schemes) {
            Some(value) => response.headers_mut().insert(header::WWW_AUTHENTICATE, value),
            None => response.headers_mut().remove(header::WWW_AUTHENTICATE),
        };
    }
    response
}

/// The answer to `error` of the operation `info`, in the error body it answers that status in
/// ([`OperationInfo::error_shape`]: its own, else the API's `errors`).
fn refusal(error: ApiError, info: &OperationInfo, errors: &'static ErrorShape) -> Response {
    let shape = info.error_shape(error.status().as_u16(), errors);
    error.into_response_with(shape)
}

/// Answers an error before the handler runs, in the API's error shape.
pub fn reject(error: ApiError, errors: &'static ErrorShape) -> Reply {
    Box::pin(async move { error.into_response_with(errors) })
}
